import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const m = { merchantId: 'DemoMerchantECOM' };
const rule = (paymentMethod: string, extra: Record<string, unknown> = {}) => ({
  currency: 'EUR',
  fundingSource: 'ANY' as const,
  paymentMethod,
  shopperInteraction: 'Ecommerce' as const,
  splitLogic: {
    commission: { fixedAmount: 100, variablePercentage: 150 },
    paymentFee: 'deductFromLiableAccount' as const,
    remainder: 'addToLiableAccount' as const,
  },
  ...extra,
});
const create = (rules: unknown[], description = 'Marketplace') =>
  server.management.POST('/merchants/{merchantId}/splitConfigurations', { params: { path: m }, body: { description, rules } as never });
const p = (splitConfigurationId: string) => ({ params: { path: { ...m, splitConfigurationId } } });

describe('POST /merchants/{merchantId}/splitConfigurations and GET /merchants/{merchantId}/splitConfigurations', () => {
  test('When a profile is created, then it and every rule and logic get identifiers, and it is listed', async () => {
    const { data } = await create([rule('visa')]);
    expect(data?.splitConfigurationId).toMatch(/^SCNF/);
    expect(data?.rules[0]).toMatchObject({
      ruleId: expect.stringMatching(/^SCRL/),
      paymentMethod: 'visa',
      splitLogic: { splitLogicId: expect.stringMatching(/^SCLG/), commission: { fixedAmount: 100 } },
    });
    const list = await server.management.GET('/merchants/{merchantId}/splitConfigurations', { params: { path: m } });
    expect(list.data?.data?.map((c) => c.splitConfigurationId)).toContain(data?.splitConfigurationId);
  });

  test.each([
    ['an unknown funding source', [rule('visa', { fundingSource: 'credit-ish' })], 'rules.0.fundingSource'],
    ['an unknown booking value', [rule('visa', { splitLogic: { commission: {}, tip: 'deductFromLiableAccount' } })], 'rules.0.splitLogic.tip'],
    ['a currency that is not a code', [rule('visa', { currency: 'euro' })], 'rules.0.currency'],
    ['no commission', [rule('visa', { splitLogic: { paymentFee: 'deductFromLiableAccount' } })], 'rules.0.splitLogic.commission'],
    ['two rules with the same conditions', [rule('visa'), rule('visa')], 'rules'],
    ['no rules', [], 'rules'],
  ])('When the profile has %s, then the answer is 422 naming the field', async (_name, rules, field) => {
    const { error } = await create(rules);
    expect(error?.status).toBe(422);
    expect(error?.invalidFields?.map((f) => f.name)).toContain(field);
  });
});

describe('GET /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}, POST /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}, PATCH /merchants/{merchantId}/splitConfigurations/{splitConfigurationId} and DELETE /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}', () => {
  test('When a rule is added and the profile renamed, then the profile shows both; a rule with the same conditions is refused', async () => {
    const id = (await create([rule('visa')])).data!.splitConfigurationId!;
    const added = await server.management.POST('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}', {
      ...p(id),
      body: rule('paypal', { shopperInteraction: 'ANY' }),
    });
    expect(added.data?.rules.map((r) => r.paymentMethod)).toEqual(['visa', 'paypal']);
    expect(
      (await server.management.POST('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}', { ...p(id), body: rule('visa') })).response.status,
    ).toBe(422);
    const renamed = await server.management.PATCH('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}', {
      ...p(id),
      body: { description: 'Renamed' },
    });
    expect(renamed.data?.description).toBe('Renamed');
    expect((await server.management.GET('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}', p(id))).data?.rules).toHaveLength(2);
  });

  test('When a profile is deleted, then the answer carries it, it is gone, and other profiles stay', async () => {
    const keep = (await create([rule('visa')], 'keep')).data!.splitConfigurationId!;
    const gone = (await create([rule('mc')], 'gone')).data!;
    const deleted = await server.management.DELETE('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}', p(gone.splitConfigurationId!));
    expect(deleted.response.status).toBe(200);
    expect(deleted.data).toEqual(gone);
    expect(
      (await server.management.GET('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}', p(gone.splitConfigurationId!))).response.status,
    ).toBe(404);
    expect((await server.management.GET('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}', p(keep))).response.status).toBe(200);
  });
});

describe('PATCH /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId}, DELETE /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId} and PATCH /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId}/splitLogic/{splitLogicId}', () => {
  test('When conditions and logic of a rule change and a rule is deleted, then the profile reflects it; the last rule cannot be deleted', async () => {
    const created = (await create([rule('visa'), rule('mc')])).data!;
    const [visa, mc] = created.rules;
    const path = (ruleId: string) => ({ params: { path: { ...m, splitConfigurationId: created.splitConfigurationId!, ruleId } } });
    const conditions = await server.management.PATCH('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId}', {
      ...path(visa!.ruleId!),
      body: { currency: 'EUR', fundingSource: 'credit', paymentMethod: 'visa', shopperInteraction: 'Ecommerce' },
    });
    expect(conditions.data?.rules[0]?.fundingSource).toBe('credit');
    const conflict = await server.management.PATCH('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId}', {
      ...path(visa!.ruleId!),
      body: { currency: 'EUR', fundingSource: 'ANY', paymentMethod: 'mc', shopperInteraction: 'Ecommerce' },
    });
    expect(conflict.response.status).toBe(422);
    const logic = await server.management.PATCH('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId}/splitLogic/{splitLogicId}', {
      params: { path: { ...m, splitConfigurationId: created.splitConfigurationId!, ruleId: visa!.ruleId!, splitLogicId: visa!.splitLogic.splitLogicId! } },
      body: { commission: { variablePercentage: 300 }, tip: 'addToOneBalanceAccount' },
    });
    expect(logic.data?.rules[0]?.splitLogic).toEqual({
      splitLogicId: visa!.splitLogic.splitLogicId,
      commission: { variablePercentage: 300 },
      tip: 'addToOneBalanceAccount',
    });
    const afterDelete = await server.management.DELETE('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId}', path(mc!.ruleId!));
    expect(afterDelete.data?.rules.map((r) => r.ruleId)).toEqual([visa!.ruleId]);
    expect(
      (await server.management.DELETE('/merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId}', path(visa!.ruleId!))).response
        .status,
    ).toBe(422);
  });
});
