import { expect } from '@jest/globals';
import type { TestServer } from './start-server.js';

/**
 * What the payment-method tests share: following a hosted page as a shopper's browser would,
 * moving the sandbox clock, and reading a payment as the store holds it.
 */

/** Opens a redirect action's page, picks an answer and returns the redirectResult the shopper brings back. */
export async function answerRedirect(action: unknown, outcome: 'authorised' | 'refused' | 'cancelled' | 'pending'): Promise<string> {
  const { url } = action as { url: string };
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(`outcome=${outcome}`);
  const answered = await fetch(`${url}/answer?outcome=${outcome}`, { redirect: 'manual' });
  expect(answered.status).toBe(302);
  return new URL(answered.headers.get('location')!).searchParams.get('redirectResult')!;
}

/** Moves the demo company's sandbox clock and lets the dispatcher do what fell due. */
export async function advanceClock(server: TestServer, seconds: number): Promise<void> {
  const { response } = await server.checkout.POST('/sandbox/clock/advance', { body: { seconds } });
  expect(response.status).toBe(200);
  await server.dispatcher.drain();
}

/** A payment as the store holds it now. */
export function storedPayment(server: TestServer, pspReference: string) {
  return server.store.read((tx) => tx.payments.get(pspReference));
}

/** The events recorded for a payment (its own and its modifications'), as codes with their outcome. */
export async function recordedEvents(server: TestServer, pspReference: string, merchantAccount = 'DemoMerchantECOM'): Promise<string[]> {
  const events = await server.store.read((tx) => tx.outbox.listEvents(merchantAccount, 0, 100_000));
  return events.filter((e) => e.pspReference === pspReference || e.originalReference === pspReference).map((e) => `${e.eventCode}:${e.success}`);
}

/**
 * A test card of each brand /paymentMethods can list in `scheme.brands` (the card table of
 * docs/sandbox-test-data.md), and the brand the payment then names: a variant (Cartes Bancaires, debit, V PAY,
 * Maestro USA) is paid on its network.
 */
export const TEST_CARD_OF_BRAND: Readonly<Record<string, { number: string; paidAs: string }>> = {
  visa: { number: '4111111111111111', paidAs: 'visa' },
  visadebit: { number: '4400000000000008', paidAs: 'visa' },
  vpay: { number: '4013250000000000006', paidAs: 'visa' },
  cartebancaire: { number: '4360000001000005', paidAs: 'visa' },
  mc: { number: '5555555555554444', paidAs: 'mc' },
  mcdebit: { number: '5555341244441115', paidAs: 'mc' },
  amex: { number: '370000000000002', paidAs: 'amex' },
  maestro: { number: '6771798021000008', paidAs: 'maestro' },
  maestro_usa: { number: '6771798021000008', paidAs: 'maestro' },
  jcb: { number: '3569990010095841', paidAs: 'jcb' },
  cup: { number: '6250946000000016', paidAs: 'cup' },
  diners: { number: '36006666333344', paidAs: 'diners' },
  discover: { number: '6011601160116611', paidAs: 'discover' },
  hipercard: { number: '6062828888666688', paidAs: 'hipercard' },
};

/** What POST /payments takes for one offered entry (merged into a card request of EUR 10.00), and what it answers. */
export interface TestPayment {
  /** The entry and, where it has several, which of its test data (a brand, a subtype). */
  name: string;
  body: Record<string, unknown>;
  resultCode: string;
  /** The `paymentMethod` the answer names. */
  paidWith: { type: string; brand?: string };
}

const card = (number: string) => ({ number, expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'John Smith' });
const walletCard = Buffer.from(JSON.stringify({ number: '5555555555554444', expiryMonth: '03', expiryYear: '2030' })).toString('base64');
const GIFT_CARDS: Readonly<Record<string, { number: string; pin: string; currency: string }>> = {
  givex: { number: '6036283997595793321', pin: '1234', currency: 'EUR' },
  svs: { number: '6006491286999921374', pin: '1111', currency: 'EUR' },
  valuelink: { number: '7777182708544835', pin: '2416', currency: 'USD' },
};

/**
 * The test data of an entry of /paymentMethods (docs/sandbox-test-data.md's tables): one payment per card brand,
 * per PayPal subtype, otherwise one. Empty for an entry without test data, which a test treats as
 * a method offered that cannot be paid.
 */
export function testPaymentsOf(entry: { type?: string; brand?: string; brands?: string[] }): TestPayment[] {
  const type = entry.type ?? '';
  const one = (body: Record<string, unknown>, resultCode: string, paidWith: TestPayment['paidWith'] = { type }): TestPayment[] => [
    { name: type, body, resultCode, paidWith },
  ];
  switch (type) {
    case 'scheme':
      return (entry.brands ?? []).flatMap((brand) => {
        const test = TEST_CARD_OF_BRAND[brand];
        if (!test) return [];
        return [
          {
            name: `scheme/${brand}`,
            body: { paymentMethod: { type, brand, ...card(test.number) } },
            resultCode: 'Authorised',
            paidWith: { type, brand: test.paidAs },
          },
        ];
      });
    case 'giftcard': {
      const test = entry.brand ? GIFT_CARDS[entry.brand] : undefined;
      if (!test) return [];
      return [
        {
          name: `giftcard/${entry.brand}`,
          body: { amount: { currency: test.currency, value: 1000 }, paymentMethod: { type, brand: entry.brand, number: test.number, cvc: test.pin } },
          resultCode: 'Authorised',
          paidWith: { type, brand: entry.brand! },
        },
      ];
    }
    case 'bcmc':
      return one({ paymentMethod: { type, ...card('6703444444444449') } }, 'RedirectShopper', { type, brand: 'bcmc' });
    case 'bcmc_mobile':
    case 'ideal':
      return one({ paymentMethod: { type } }, type === 'ideal' ? 'RedirectShopper' : 'Pending');
    case 'multibanco':
      return one({ paymentMethod: { type } }, 'PresentToShopper');
    case 'paypal':
      return [
        { name: 'paypal/sdk', body: { paymentMethod: { type, subtype: 'sdk' } }, resultCode: 'Pending', paidWith: { type } },
        { name: 'paypal/redirect', body: { paymentMethod: { type, subtype: 'redirect' } }, resultCode: 'RedirectShopper', paidWith: { type } },
      ];
    case 'klarna':
    case 'klarna_account':
    case 'klarna_paynow':
    case 'klarna_b2b':
      return one(
        {
          paymentMethod: { type },
          shopperEmail: 'customer@example.com',
          lineItems: [{ id: 'jacket', description: 'Jacket', quantity: 1, amountIncludingTax: 1000, taxPercentage: 2100 }],
        },
        'RedirectShopper',
      );
    case 'sepadirectdebit':
      return one({ paymentMethod: { type, iban: 'DE87123456781234567890', ownerName: 'A. Schneider' } }, 'Received');
    case 'applepay':
      return one({ paymentMethod: { type, applePayToken: walletCard } }, 'Authorised', { type, brand: 'mc' });
    case 'googlepay':
      return one({ paymentMethod: { type, googlePayToken: walletCard } }, 'Authorised', { type, brand: 'mc' });
    default:
      return [];
  }
}
