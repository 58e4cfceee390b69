/**
 * Clock-driven payment steps with two instances on one PostgreSQL database: both dispatchers
 * look for due steps at once, and each step is applied, and reported, exactly once (the payment
 * and the order are read locked), and a gift card's balance holds when both spend it at once.
 * SQLite has one process per file, so the test runs on PostgreSQL only.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { buildPaymentRequest } from '../helpers/factories.js';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';
import { recordedEvents } from '../helpers/methods.js';
import { eur } from '../helpers/payments.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

(TEST_ENGINE === 'postgres' ? describe : describe.skip)('Payment methods settled by the clock, two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    database = await freshDatabase();
    first = await startServer(database.config);
    second = await startServer(database.config);
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await database?.drop();
  });

  test('When debits, a QR code, a voucher and an order fall due and both dispatchers run at once, then each is settled and reported once', async () => {
    const debits = await Promise.all(
      [0, 1, 2, 3, 4].map(async () => {
        const { data } = await first.checkout.POST('/payments', {
          body: buildPaymentRequest({ paymentMethod: { type: 'sepadirectdebit', iban: 'NL13TEST0123456789', ownerName: 'A. Klaassen' } }),
        });
        return data!.pspReference!;
      }),
    );
    const qr = (await second.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'bcmc_mobile' } }) })).data!.pspReference!;
    const voucher = (await second.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'multibanco' } }) })).data!.pspReference!;
    const order = (await first.checkout.POST('/orders', { body: { merchantAccount: 'DemoMerchantECOM', reference: 'two-instances', amount: eur(5000) } }))
      .data!;
    await first.checkout.POST('/sandbox/clock/advance', { body: { seconds: 4 * 24 * 3600 } });
    // The second instance reads the company's clock when it next authenticates a request.
    await second.checkout.GET('/sandbox/clock');

    await Promise.all([first.dispatcher.drain(), second.dispatcher.drain(), first.dispatcher.drain(), second.dispatcher.drain()]);

    for (const psp of debits) expect(await recordedEvents(first, psp)).toEqual(['AUTHORISATION:true']);
    expect(await recordedEvents(first, qr)).toEqual(['OFFER_CLOSED:true']);
    expect(await recordedEvents(first, voucher)).toEqual(['OFFER_CLOSED:true']);
    expect(await recordedEvents(first, order.pspReference!)).toEqual(['ORDER_OPENED:true', 'ORDER_CLOSED:false', 'OFFER_CLOSED:true']);
  });

  test('When one gift card pays on both instances at once, then its balance is never overspent', async () => {
    // The SVS test card holds EUR 25.00 (a fresh database): two payments of EUR 10.00 fit, a third does not.
    const svs = { type: 'giftcard', brand: 'svs', number: '6006491286999921374', cvc: '1111' };
    const answers = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (i) => {
        const { data } = await (i % 2 === 0 ? first : second).checkout.POST('/payments', {
          body: buildPaymentRequest({ amount: eur(1000), paymentMethod: svs as never }),
        });
        return data!.resultCode;
      }),
    );
    expect(answers.filter((code) => code === 'Authorised')).toHaveLength(2);
    expect(answers.filter((code) => code === 'Refused')).toHaveLength(4);
  });
});
