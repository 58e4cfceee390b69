import { describe, expect, test } from '@jest/globals';
import { jsonProblem, MAX_JSON_DEPTH } from '../../server/kernel/http/json-body.js';

const nest = (depth: number): unknown => (depth === 0 ? 1 : { a: nest(depth - 1) });

describe('jsonProblem', () => {
  test.each([
    [{ amount: { value: 9007199254740991 } }, undefined],
    [{ amount: { value: 2 ** 53 } }, '192'],
    [{ list: [1, 2, -(2 ** 60)] }, '192'],
    [{ rate: 0.25 }, undefined],
    [nest(MAX_JSON_DEPTH - 1), undefined],
    [nest(MAX_JSON_DEPTH + 1), '702'],
  ])('When the body is %j, then the problem code is %s', (body, code) => {
    expect(jsonProblem(body)?.code).toBe(code);
  });

  test('When an unsafe integer is nested, then the message names its path', () => {
    expect(jsonProblem({ lineItems: [{ quantity: 2 ** 60 }] })?.message).toContain("'lineItems.0.quantity'");
  });

  test('When an unsafe integer is refused, then the refusal lists the field for invalidFields', () => {
    expect(jsonProblem({ lineItems: [{ quantity: 2 ** 60 }] })?.invalidFields).toEqual([
      { name: 'lineItems.0.quantity', value: String(2 ** 60), message: expect.stringContaining('not a safe integer') },
    ]);
  });
});
