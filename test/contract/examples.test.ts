import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DEMO } from '../../server/seed.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';
import { ARRANGE, closeArranged } from './arrange.js';
import { type Area as AnyArea, type KeyedArea as Area, exampleCases, replay, responseValidator, type Target } from './suite.js';

const AREAS: Area[] = ['checkout', 'management'];
const cases = AREAS.flatMap((area) => exampleCases(area));
// The client-side area takes client keys from a page: its operations are replayed by their own contract tests, not here.
const validators = Object.fromEntries(AREAS.map((area) => [area, responseValidator(area)])) as Record<AnyArea, ReturnType<typeof responseValidator>>;
const named = cases.map((c) => [`${c.operation.operationId} ${c.scenario} → ${c.status}`, c] as const);

/**
 * Against a deployment: CONTRACT_CHECKOUT_URL, CONTRACT_MANAGEMENT_URL and CONTRACT_API_KEY
 * (a credential with every role of the demo company's data set).
 */
const deployed = process.env.CONTRACT_CHECKOUT_URL && process.env.CONTRACT_MANAGEMENT_URL && process.env.CONTRACT_API_KEY;
(deployed ? describe : describe.skip)('Contract: the spec examples against a deployment', () => {
  const target: Target = {
    baseUrl: { checkout: process.env.CONTRACT_CHECKOUT_URL ?? '', management: process.env.CONTRACT_MANAGEMENT_URL ?? '' },
    headers: { 'X-API-Key': process.env.CONTRACT_API_KEY ?? '' },
    preferExample: false,
  };
  // The loopback receiver of the webhook and forward arrangements: left open, the run never exits.
  afterAll(() => closeArranged());
  test.each(named)('When %s is replayed, then the status and the body schema match', async (_name, c) => {
    const arranged = ARRANGE[c.operation.operationId] ? await ARRANGE[c.operation.operationId]!(target, c) : {};
    const result = await replay(target, c, arranged);
    expect(result.status).toBe(c.status);
    expect(validators[c.area](c.schemaPointer, result.body)).toEqual([]);
  });
});

describe('Contract: the spec examples against the server', () => {
  let server: TestServer;
  let target: Target;
  beforeAll(async () => {
    server = await startServer();
    target = { baseUrl: { checkout: server.checkoutUrl, management: server.managementUrl }, headers: { 'X-API-Key': COMPANY_KEY }, preferExample: false };
  });
  afterAll(async () => {
    await closeArranged();
    await server.stop();
  });

  test.each(named)('When %s is replayed, then the status and the body schema match', async (_name, c) => {
    const arranged = ARRANGE[c.operation.operationId] ? await ARRANGE[c.operation.operationId]!(target, c) : {};
    const result = await replay(target, c, arranged);
    expect({ status: result.status, body: result.body }).toMatchObject({ status: c.status });
    expect(validators[c.area](c.schemaPointer, result.body)).toEqual([]);
  });
});

describe("Contract: the client-side examples against the server, from a page with the demo company credential's client key", () => {
  const clientside = exampleCases('clientside').map((c) => [`${c.operation.operationId} ${c.scenario} → ${c.status}`, c] as const);
  const validate = responseValidator('clientside');
  let server: TestServer;
  let arranger: Target;
  let clientKey: string;
  beforeAll(async () => {
    server = await startServer();
    arranger = {
      baseUrl: { checkout: server.checkoutUrl, management: server.managementUrl, clientside: server.clientsideUrl },
      headers: { 'X-API-Key': COMPANY_KEY },
      preferExample: false,
    };
    clientKey = (await server.store.read((tx) => tx.credentials.get(DEMO.companyCredentialId)))!.clientKey;
  });
  afterAll(async () => {
    await closeArranged();
    await server.stop();
  });

  test.each(clientside)('When %s is replayed, then the status and the body schema match', async (_name, c) => {
    // Arranged with the API key (the merchant's server makes the session), called from the page with the client key.
    const arranged = ARRANGE[c.operation.operationId] ? await ARRANGE[c.operation.operationId]!(arranger, c) : {};
    const param = c.operation.parameters.find((p) => p.in === 'query')!.name;
    const page: Target = { ...arranger, headers: { Origin: 'https://shop.example.com' } };
    const result = await replay(page, c, { ...arranged, query: { ...arranged.query, [param]: clientKey } });
    expect({ status: result.status, body: result.body }).toMatchObject({ status: c.status });
    expect(validate(c.schemaPointer, result.body)).toEqual([]);
  });
});
