import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
// Each test gets its own server: tests must pass in any order (jest --randomize).
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.stop());

const m = { merchantId: 'DemoMerchantECOM' };
const add = (body: { transferInstrumentId: string; enabled?: boolean; enabledFromDate?: string }) =>
  server.management.POST('/merchants/{merchantId}/payoutSettings', { params: { path: m }, body });
const get = (payoutSettingsId: string) =>
  server.management.GET('/merchants/{merchantId}/payoutSettings/{payoutSettingsId}', { params: { path: { ...m, payoutSettingsId } } });

describe('POST /merchants/{merchantId}/payoutSettings and GET /merchants/{merchantId}/payoutSettings', () => {
  test.each([
    ['SE322JV223222F5GJVKHH6BDT', 'valid', true],
    ['SE322JV223222F5GJVKHH6INVALID', 'invalid', false],
    ['SE322JV223222F5GJVKHH6REJECTED', 'rejected', false],
    ['SE322JV223222F5GJVKHH6PENDING', 'pending', false],
  ])('When transfer instrument %s is linked, then verification says %s and allowed is %s', async (transferInstrumentId, verificationStatus, allowed) => {
    const { data } = await add({ transferInstrumentId });
    expect(data).toMatchObject({ transferInstrumentId, verificationStatus, allowed, enabled: true, priority: 'normal' });
  });

  test('When several settings exist, then all are listed', async () => {
    const ids = [];
    for (const transferInstrumentId of [
      'SE322JV223222F5GJVKHH6BDT',
      'SE322JV223222F5GJVKHH6INVALID',
      'SE322JV223222F5GJVKHH6PENDING',
      'SE322JV223222F5GJVKHH6REJECTED',
    ]) {
      ids.push((await add({ transferInstrumentId })).data!.id);
    }
    const { data } = await server.management.GET('/merchants/{merchantId}/payoutSettings', { params: { path: m } });
    expect(data?.data?.map((setting) => setting.id)).toEqual(expect.arrayContaining(ids));
  });

  test('When the transfer instrument is missing, then the answer is 422 naming it', async () => {
    const { error } = await server.management.POST('/merchants/{merchantId}/payoutSettings', { params: { path: m }, body: {} as never });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'transferInstrumentId' })] });
  });
});

describe('GET /merchants/{merchantId}/payoutSettings/{payoutSettingsId}, PATCH /merchants/{merchantId}/payoutSettings/{payoutSettingsId} and DELETE /merchants/{merchantId}/payoutSettings/{payoutSettingsId}', () => {
  test('When enabled is false with a date, then payouts switch on when the date arrives and the date is cleared', async () => {
    const date = new Date(server.clock.now().getTime() + 3 * 24 * 3600_000).toISOString();
    const { data } = await add({ transferInstrumentId: 'SE-LATER-1', enabled: false, enabledFromDate: date });
    expect(data).toMatchObject({ enabled: false, enabledFromDate: date });
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 2 * 24 * 3600 } });
    expect((await get(data!.id)).data).toMatchObject({ enabled: false, enabledFromDate: date });
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 24 * 3600 } });
    const after = (await get(data!.id)).data!;
    expect(after.enabled).toBe(true);
    expect(after.enabledFromDate).toBeUndefined();
  });

  test('When enabled is true with a date, then the date stays after it arrives', async () => {
    const date = new Date(server.clock.now().getTime() + 3600_000).toISOString();
    const { data } = await add({ transferInstrumentId: 'SE-LATER-2', enabled: true, enabledFromDate: date });
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 3601 } });
    expect((await get(data!.id)).data).toMatchObject({ enabled: true, enabledFromDate: date });
  });

  test('When payouts are switched off and the setting is deleted, then it is gone', async () => {
    const { data } = await add({ transferInstrumentId: 'SE-OFF' });
    const p = { params: { path: { ...m, payoutSettingsId: data!.id } } };
    expect((await server.management.PATCH('/merchants/{merchantId}/payoutSettings/{payoutSettingsId}', { ...p, body: { enabled: false } })).data?.enabled).toBe(
      false,
    );
    expect((await server.management.DELETE('/merchants/{merchantId}/payoutSettings/{payoutSettingsId}', p)).response.status).toBe(204);
    expect((await get(data!.id)).response.status).toBe(404);
  });

  test('When the setting belongs to another merchant account, then it is not found there', async () => {
    const { data } = await add({ transferInstrumentId: 'SE-OTHER' });
    const { response } = await server.management.GET('/merchants/{merchantId}/payoutSettings/{payoutSettingsId}', {
      params: { path: { merchantId: 'DemoMerchantPOS', payoutSettingsId: data!.id } },
    });
    expect(response.status).toBe(404);
  });
});
