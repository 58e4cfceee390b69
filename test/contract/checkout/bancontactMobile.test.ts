import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { advanceClock, recordedEvents } from '../../helpers/methods.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

type QrAction = { type: string; qrCodeData: string; url: string; expiresAt: string; paymentData: string };
const start = async () => {
  const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'bcmc_mobile' } }) });
  return data!;
};
const poll = (action: QrAction) => server.checkout.POST('/payments/details', { body: { details: {}, paymentData: action.paymentData } });
const scanAndAnswer = async (action: QrAction, outcome: 'authorised' | 'refused') => {
  expect((await fetch(action.qrCodeData)).status).toBe(200);
  const answered = await fetch(`${action.qrCodeData}/answer`, { method: 'POST', body: new URLSearchParams({ outcome }) });
  expect(answered.status).toBe(200);
};

describe('POST /payments with Bancontact mobile, then POST /payments/details', () => {
  test('When the payment starts, then it is Pending with a QR code that expires, and polling keeps it Pending', async () => {
    const started = await start();
    expect(started).toMatchObject({
      resultCode: 'Pending',
      paymentMethod: { type: 'bcmc_mobile' },
      action: { type: 'qrCode', paymentMethodType: 'bcmc_mobile' },
    });
    const action = started.action as QrAction;
    expect(action.qrCodeData).toContain(`/hosted/bcmc-mobile/${started.pspReference}`);
    expect(Date.parse(action.expiresAt) - server.clock.now().getTime()).toBeGreaterThan(14 * 60 * 1000);
    expect((await poll(action)).data).toMatchObject({ pspReference: started.pspReference, resultCode: 'Pending' });
  });

  test('When the app pays, then the next poll answers Authorised, and polling again gives the same answer without a second event', async () => {
    const started = await start();
    const action = started.action as QrAction;
    await scanAndAnswer(action, 'authorised');
    expect((await poll(action)).data).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'bcmc_mobile' } });
    expect((await poll(action)).data?.resultCode).toBe('Authorised');
    await server.dispatcher.drain();
    expect(await recordedEvents(server, started.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true']);
  });

  test('When the app declines, then the dispatcher reports the refusal without a poll', async () => {
    const started = await start();
    await scanAndAnswer(started.action as QrAction, 'refused');
    await server.dispatcher.drain();
    expect(await recordedEvents(server, started.pspReference!)).toEqual(['AUTHORISATION:false']);
    expect((await poll(started.action as QrAction)).data?.resultCode).toBe('Refused');
  });

  test('When nobody scans the code before it expires, then the offer closes (OFFER_CLOSED) and the app page is gone', async () => {
    const started = await start();
    await advanceClock(server, 16 * 60);
    expect(await recordedEvents(server, started.pspReference!)).toEqual(['OFFER_CLOSED:true']);
    expect((await poll(started.action as QrAction)).data?.resultCode).toBe('Cancelled');
    expect((await fetch((started.action as QrAction).qrCodeData)).status).toBe(404);
  });
});
