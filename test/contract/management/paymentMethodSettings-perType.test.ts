/**
 * Payment method settings with every `type` and every per-type object: the object must belong to
 * the type, secrets in it are neither stored nor answered in plain text, and what is enabled
 * (within its countries and currencies) is what checkout's /paymentMethods offers at once.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
// One server for the file: every test ties its settings to a store of its own (or to DemoMerchantPOS),
// so the tests hold in any order.
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const SETUP_TYPES = (
  JSON.parse(readFileSync(join(process.cwd(), 'generated', 'management.json'), 'utf8')) as {
    components: { schemas: { PaymentMethodSetupInfo: { properties: { type: { enum: string[] } } } } };
  }
).components.schemas.PaymentMethodSetupInfo.properties.type.enum;

type Body = Record<string, unknown>;
const tdi = { transactionDescription: { type: 'append', doingBusinessAsName: 'DEMO SHOP' } };
const logo = 'iVBORw0KGgo=';

/** A complete object of each kind with the type it goes with. */
const OBJECTS: Array<[key: string, type: string, object: Body]> = [
  ['accel', 'accel', { processingType: 'ecom', ...tdi }],
  ['affirm', 'affirm', { supportEmail: 'help@shop.example.com', pricePlan: 'standard' }],
  ['afterpayTouch', 'afterpaytouch', { supportUrl: 'https://shop.example.com/help', supportEmail: 'help@shop.example.com' }],
  ['alipayPlus', 'alipay_plus_gcash', { settlementCurrencyCode: 'USD' }],
  ['amex', 'amex', { serviceLevel: 'gatewayContract', midNumber: '1234567890', reuseMidNumber: false }],
  ['applePay', 'applepay', { domains: ['pay.shop.example.com'] }],
  ['bcmc', 'bcmc', { enableBcmcMobile: true }],
  ['carnet', 'carnet', tdi],
  ['cartesBancaires', 'cartebancaire', { siret: '73282932000074', ...tdi }],
  ['clearpay', 'clearpay', { supportUrl: 'https://shop.example.com/help' }],
  ['cup', 'cup', tdi],
  ['diners', 'diners', { reuseMidNumber: true, serviceLevel: 'noContract', ...tdi }],
  ['discover', 'discover', tdi],
  ['eft_directdebit_CA', 'eft_directdebit_CA', tdi],
  ['eftpos_australia', 'eftpos_australia', tdi],
  ['girocard', 'girocard', tdi],
  ['givex', 'givex', { currencyCode: 'CAD', password: 'givex-Secret-4711', paymentFlow: 'Ecommerce', username: 'demo-givex' }],
  ['googlePay', 'googlepay', { merchantId: 'BCR2DN4T2XYZ', reuseMerchantId: false }],
  ['ideal', 'ideal', tdi],
  ['interac_card', 'interac_card', tdi],
  ['jcb', 'jcb', { midNumber: '9876543210', serviceLevel: 'noContract', ...tdi }],
  ['klarna', 'klarna_paynow', { region: 'EU', supportEmail: 'help@shop.example.com', disputeEmail: 'disputes@shop.example.com' }],
  ['maestro', 'maestro', tdi],
  ['maestro_usa', 'maestro_usa', tdi],
  ['mc', 'mc', tdi],
  ['mealVoucher_FR', 'mealVoucher_FR', { conecsId: 'CONECS-1', siret: '73282932000074', subTypes: ['sodexo', 'up'] }],
  ['nyce', 'nyce', { processingType: 'pos' }],
  ['paybybank_plaid', 'paybybank_plaid', tdi],
  ['payme', 'payme', { displayName: 'Demo Shop', logo, supportEmail: 'help@shop.example.com' }],
  ['paypal', 'paypal', { payerId: '7W6KQ3MSB5ZRC', subject: 'payments@shop.example.com', directCapture: true }],
  ['payto', 'payto', { merchantName: 'Demo Shop', payToPurpose: 'retail' }],
  ['pulse', 'pulse', { processingType: 'billpay' }],
  ['sepadirectdebit', 'sepadirectdebit', { creditorId: 'NL98ZZZ123456780000', ...tdi }],
  ['sodexo', 'sodexo', { merchantContactPhone: '+33123456789' }],
  ['star', 'star', { processingType: 'ecom' }],
  ['svs', 'svs', { authorisationMid: 'SVS-MID-1', currencyCode: 'USD' }],
  ['swish', 'swish', { swishNumber: '1231234567' }],
  ['ticket', 'ticket', { requestorId: 'REQ-1' }],
  ['twint', 'twint_pos', { logo }],
  ['valuelink', 'valuelink', { authorisationMid: 'VL-MID-1', pinSupport: 'NO PIN', submitterId: 'S1', terminalId: 'T1' }],
  ['vipps', 'vipps', { logo, subscriptionCancelUrl: 'https://shop.example.com/cancel' }],
  ['visa', 'visa', tdi],
  ['wechatpay', 'wechatpay', { contactPersonName: 'Jane Doe', email: 'jane@shop.example.com' }],
  ['wechatpay_pos', 'wechatpay_pos', { contactPersonName: 'Jane Doe', email: 'jane@shop.example.com' }],
];

const request = (merchantId: string, body: Body) =>
  server.management.POST('/merchants/{merchantId}/paymentMethodSettings', { params: { path: { merchantId } }, body: body as never });
const update = (merchantId: string, paymentMethodId: string, body: Body) =>
  server.management.PATCH('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', {
    params: { path: { merchantId, paymentMethodId } },
    body: body as never,
  });
const settingsOf = async (merchantId: string) =>
  (await server.management.GET('/merchants/{merchantId}/paymentMethodSettings', { params: { path: { merchantId }, query: { pageSize: 100 } } })).data!;
const offered = async (body: Body) =>
  ((await server.checkout.POST('/paymentMethods', { body: { merchantAccount: 'DemoMerchantECOM', ...body } as never })).data?.paymentMethods ?? []).map(
    (x) => x.type,
  );
const stored = (id: string) => server.store.read((tx) => tx.paymentMethodSettings.get(id));

describe('POST /merchants/{merchantId}/paymentMethodSettings', () => {
  test('When every type of the enum is requested, then each is set up and answered with its type', async () => {
    // Adyen's 147 variants, and giftcard kept from earlier versions of this service.
    expect(SETUP_TYPES).toHaveLength(148);
    const answered: string[] = [];
    for (const type of SETUP_TYPES) {
      const { data, response } = await request('DemoMerchantPOS', { type, storeIds: ['EVERY-TYPE'] });
      expect({ type, status: response.status }).toEqual({ type, status: 200 });
      answered.push(data!.type!);
    }
    expect(answered).toEqual(SETUP_TYPES);
  });

  test.each(OBJECTS)('When a %s object comes with type %s, then it is stored and answered as given', async (key, type, object) => {
    const { data, response } = await request('DemoMerchantPOS', { type, storeIds: [`OBJ-${key}`], [key]: object });
    expect(response.status).toBe(200);
    const expected = key === 'givex' ? { ...object, password: '********' } : object;
    expect((data as Body)[key]).toEqual(expected);
    expect(
      (
        await server.management.GET('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', {
          params: { path: { merchantId: 'DemoMerchantPOS', paymentMethodId: data!.id } },
        })
      ).data as Body,
    ).toMatchObject({ [key]: expected });
  });

  test.each(OBJECTS.map(([key, , object]) => [key, key === 'klarna' ? 'paypal' : 'klarna', object] as const))(
    'When a %s object comes with type %s, then the answer is 422 naming the object and nothing is stored',
    async (key, type, object) => {
      const before = (await settingsOf('DemoMerchantPOS')).itemsTotal;
      const { error, response } = await request('DemoMerchantPOS', { type, storeIds: [`MISMATCH-${key}`], [key]: object });
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ errorCode: '00_422', invalidFields: [expect.objectContaining({ name: key })] });
      expect((await settingsOf('DemoMerchantPOS')).itemsTotal).toBe(before);
    },
  );

  test('When a sofort object is given, then it is refused whatever the type: Sofort can no longer be requested', async () => {
    const { error } = await request('DemoMerchantPOS', { type: 'ebanking_FI', storeIds: ['SOFORT'], sofort: { currencyCode: 'EUR', logo } });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'sofort' })] });
  });

  test('When a Klarna object misses a required field or has a region out of its enum, then the answer is 422', async () => {
    const klarna = { region: 'EU', supportEmail: 'help@shop.example.com', disputeEmail: 'disputes@shop.example.com' };
    const { disputeEmail: _omitted, ...withoutDisputeEmail } = klarna;
    for (const object of [withoutDisputeEmail, { ...klarna, region: 'US' }, { ...klarna, extra: true }]) {
      const { response } = await request('DemoMerchantPOS', { type: 'klarna_b2b', storeIds: ['KLARNA-BAD'], klarna: object });
      expect(response.status).toBe(422);
    }
  });

  test('When Givex is set up, then its password is stored encrypted, answered as a mask, and a mismatch error does not echo it', async () => {
    const password = 'givex-Plain-Password-0815';
    const givex = { currencyCode: 'CAD', password, paymentFlow: 'POS', username: 'demo-givex' };
    const { data } = await request('DemoMerchantPOS', { type: 'givex', storeIds: ['GIVEX'], givex });
    expect(data).toMatchObject({ givex: { ...givex, password: '********' } });
    expect(JSON.stringify(await stored(data!.id))).not.toContain(password);
    expect(JSON.stringify((await settingsOf('DemoMerchantPOS')).data)).not.toContain(password);
    const refused = await request('DemoMerchantPOS', { type: 'svs', storeIds: ['GIVEX-MISMATCH'], givex });
    expect(refused.response.status).toBe(422);
    expect(JSON.stringify(refused.error)).not.toContain(password);
  });
});

describe('PATCH /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', () => {
  test('When an object of another type is sent, then the answer is 422 naming it and the setting is unchanged', async () => {
    const { data: bcmc } = await request('DemoMerchantPOS', { type: 'bcmc', storeIds: ['PATCH-MISMATCH'], bcmc: { enableBcmcMobile: false } });
    const { error } = await update('DemoMerchantPOS', bcmc!.id, {
      enabled: false,
      cartesBancaires: { transactionDescription: { type: 'fixed', doingBusinessAsName: 'DEMO' } },
    });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'cartesBancaires' })] });
    expect(await stored(bcmc!.id)).toMatchObject({ enabled: true, details: { bcmc: { enableBcmcMobile: false } } });
  });

  test('When an object of the setting type is sent, then it is merged field by field into the stored one', async () => {
    const { data: diners } = await request('DemoMerchantPOS', {
      type: 'diners',
      storeIds: ['PATCH-MERGE'],
      diners: { reuseMidNumber: true, midNumber: '555', serviceLevel: 'gatewayContract' },
    });
    const { data } = await update('DemoMerchantPOS', diners!.id, { diners: { transactionDescription: { type: 'fixed', doingBusinessAsName: 'DEMO' } } });
    expect(data).toMatchObject({
      diners: {
        reuseMidNumber: true,
        midNumber: '555',
        serviceLevel: 'gatewayContract',
        transactionDescription: { type: 'fixed', doingBusinessAsName: 'DEMO' },
      },
    });
  });

  test('When a statement text is sent for Bancontact, then it joins the stored bcmc object', async () => {
    const { data: bcmc } = await request('DemoMerchantPOS', { type: 'bcmc', storeIds: ['PATCH-BCMC'], bcmc: { enableBcmcMobile: true } });
    const { data } = await update('DemoMerchantPOS', bcmc!.id, { bcmc: { transactionDescription: { type: 'fixed', doingBusinessAsName: 'DEMO' } } });
    expect(data).toMatchObject({ bcmc: { enableBcmcMobile: true, transactionDescription: { type: 'fixed', doingBusinessAsName: 'DEMO' } } });
  });

  test('When a statement text is sent for Accel set up without its object, then the answer is 422 naming accel.processingType', async () => {
    const { data: accel } = await request('DemoMerchantPOS', { type: 'accel', storeIds: ['PATCH-ACCEL-BARE'] });
    const { error } = await update('DemoMerchantPOS', accel!.id, { accel: { transactionDescription: { type: 'dynamic' } } });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'accel.processingType' })] });
    expect((await stored(accel!.id))?.details).toEqual({});
  });

  test('When Diners set up without its object gets a statement text, then it reads as not reusing a mid number', async () => {
    const { data: diners } = await request('DemoMerchantPOS', { type: 'diners', storeIds: ['PATCH-DINERS-BARE'] });
    const { data } = await update('DemoMerchantPOS', diners!.id, { diners: { transactionDescription: { type: 'dynamic' } } });
    expect(data).toMatchObject({ diners: { reuseMidNumber: false, transactionDescription: { type: 'dynamic' } } });
  });
});

describe('POST /paymentMethods', () => {
  test('When Klarna is enabled with its object and then disabled, then checkout offers it at once and stops at once', async () => {
    const nl = { countryCode: 'NL', amount: { currency: 'EUR', value: 5000 } };
    expect(await offered(nl)).not.toContain('klarna_account');
    const { data } = await request('DemoMerchantECOM', {
      type: 'klarna_account',
      countries: ['NL', 'DE'],
      currencies: ['EUR'],
      klarna: { region: 'EU', supportEmail: 'help@shop.example.com', disputeEmail: 'disputes@shop.example.com' },
    });
    expect(await offered(nl)).toContain('klarna_account');
    await update('DemoMerchantECOM', data!.id, { enabled: false });
    expect(await offered(nl)).not.toContain('klarna_account');
    await update('DemoMerchantECOM', data!.id, { enabled: true });
    expect(await offered(nl)).toContain('klarna_account');
  });

  test('When a setting is not allowed (its verification is pending), then it is not offered although enabled', async () => {
    const { data } = await request('DemoMerchantECOM', { type: 'multibanco', countries: ['PT'] });
    const pt = { countryCode: 'PT', amount: { currency: 'EUR', value: 1000 } };
    const methods = async () => (await server.checkout.POST('/paymentMethods', { body: { merchantAccount: 'DemoMerchantECOM', ...pt } })).data!.paymentMethods!;
    expect((await methods()).find((m) => m.type === 'multibanco')).toEqual({ type: 'multibanco', name: 'Multibanco' });
    await server.store.transaction(async (tx) =>
      tx.paymentMethodSettings.update({ ...(await tx.paymentMethodSettings.get(data!.id))!, verificationStatus: 'pending' }),
    );
    expect((await methods()).map((m) => m.type)).not.toContain('multibanco');
  });

  test('When Cartes Bancaires is set up, then checkout offers it as a brand of the card method, not as a method of its own', async () => {
    await request('DemoMerchantECOM', { type: 'cartebancaire', countries: ['FR'], cartesBancaires: { siret: '73282932000074' } });
    const fr = { countryCode: 'FR', amount: { currency: 'EUR', value: 1000 } };
    const methods = (await server.checkout.POST('/paymentMethods', { body: { merchantAccount: 'DemoMerchantECOM', ...fr } })).data!.paymentMethods!;
    expect(methods.find((m) => m.type === 'scheme')?.brands).toContain('cartebancaire');
    expect(methods.map((m) => m.type)).not.toContain('cartebancaire');
  });

  test('When a setting is limited to countries and currencies, then only requests within both are offered it', async () => {
    const { data } = await request('DemoMerchantECOM', { type: 'klarna_b2b', countries: ['PT'], currencies: ['EUR'] });
    expect(await offered({ countryCode: 'PT', amount: { currency: 'EUR', value: 1000 } })).toContain('klarna_b2b');
    expect(await offered({ countryCode: 'ES', amount: { currency: 'EUR', value: 1000 } })).not.toContain('klarna_b2b');
    expect(await offered({ countryCode: 'PT', amount: { currency: 'USD', value: 1000 } })).not.toContain('klarna_b2b');
    await update('DemoMerchantECOM', data!.id, { countries: ['PT', 'ES'] });
    expect(await offered({ countryCode: 'ES', amount: { currency: 'EUR', value: 1000 } })).toContain('klarna_b2b');
  });

  test('When a type this service cannot pay is enabled, then it is set up but checkout does not offer it', async () => {
    const { response } = await request('DemoMerchantECOM', { type: 'mbway', countries: ['PT'], currencies: ['EUR'] });
    expect(response.status).toBe(200);
    expect(await offered({ countryCode: 'PT', amount: { currency: 'EUR', value: 1000 } })).not.toContain('mbway');
  });

  test('When Bancontact mobile is switched on and off on an existing Bancontact setting, then checkout offers it and stops', async () => {
    const be = { countryCode: 'BE', amount: { currency: 'EUR', value: 1000 }, store: 'BE-MOBILE', storeFiltrationMode: 'exclusive' };
    const { data: bcmc } = await request('DemoMerchantECOM', { type: 'bcmc', storeIds: ['BE-MOBILE'] });
    expect(await offered(be)).toEqual(['bcmc']);
    const { data: on } = await update('DemoMerchantECOM', bcmc!.id, { bcmc: { enableBcmcMobile: true } });
    expect(on).toMatchObject({ bcmc: { enableBcmcMobile: true } });
    expect(await offered(be)).toEqual(['bcmc', 'bcmc_mobile']);
    await update('DemoMerchantECOM', bcmc!.id, { bcmc: { enableBcmcMobile: false } });
    expect(await offered(be)).toEqual(['bcmc']);
  });
});
