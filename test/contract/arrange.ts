/**
 * What each operation needs to exist before its spec example can be replayed against a real
 * server: a payment to capture, an order to cancel, a redirect to finish. Keyed by operationId;
 * operations whose examples stand alone need no entry.
 */
import type { ExampleCase, Target } from './suite.js';

type Arranged = { path?: Record<string, string>; body?: unknown };
type Arrange = (target: Target, c: ExampleCase) => Promise<Arranged>;

async function post(target: Target, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${target.baseUrl.checkout}${path}`, {
    method: 'POST',
    headers: { ...target.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`arranging ${path} failed: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const card = { type: 'scheme', encryptedCardNumber: 'test_4111111111111111', encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030', encryptedSecurityCode: 'test_737' };

async function payment(target: Target, value = 1000, overrides: Record<string, unknown> = {}): Promise<string> {
  const paid = await post(target, '/payments', {
    amount: { currency: 'EUR', value },
    reference: `contract-${Date.now()}`,
    merchantAccount: 'DemoMerchantECOM',
    returnUrl: 'https://shop.example.com/return',
    paymentMethod: card,
    ...overrides,
  });
  return paid.pspReference as string;
}

const onPayment = (prepare?: (target: Target, psp: string) => Promise<void>): Arrange => async (target) => {
  const psp = await payment(target, 2000);
  if (prepare) await prepare(target, psp);
  return { path: { paymentPspReference: psp } };
};

export const ARRANGE: Record<string, Arrange> = {
  captureAuthorisedPayment: onPayment(),
  cancelAuthorisedPaymentByPspReference: onPayment(),
  refundOrCancelPayment: onPayment(),
  updateAuthorisedAmount: onPayment(),
  refundCapturedPayment: onPayment(async (target, psp) => {
    await post(target, `/payments/${psp}/captures`, { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 2000 } });
  }),
  cancelAuthorisedPayment: async (target, c) => {
    await payment(target, 1000, { reference: (c.body as { paymentReference: string }).paymentReference });
    return {};
  },
  cancelOrder: async (target, c) => {
    const order = await post(target, '/orders', { merchantAccount: 'DemoMerchantECOM', reference: 'contract-order', amount: { currency: 'EUR', value: 2500 } });
    return { body: { ...(c.body as object), order: { pspReference: order.pspReference, orderData: order.orderData } } };
  },
  paymentsDetails: async (target) => {
    const started = await post(target, '/payments', {
      amount: { currency: 'EUR', value: 4200 },
      reference: 'contract-3ds',
      merchantAccount: 'DemoMerchantECOM',
      returnUrl: 'https://shop.example.com/return',
      paymentMethod: { ...card, encryptedCardNumber: 'test_4212345678910006' },
    });
    const complete = await fetch(`${started.action.url}/complete?outcome=authorised`, { redirect: 'manual' });
    const redirectResult = new URL(complete.headers.get('location')!).searchParams.get('redirectResult');
    return { body: { details: { redirectResult } } };
  },
};
