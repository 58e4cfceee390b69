import { describe, expect, test } from '@jest/globals';
import { refusalOfRow, requestedTestResult, TEST_REFUSALS, TEST_RESULTS } from '../../server/checkout/payments/test-results.js';

const asked = (holderName: string | null, additionalData?: Record<string, unknown>) => {
  const found = requestedTestResult(holderName, additionalData);
  return found && { holderName: found.result.holderName, ...(found.raw !== undefined && { raw: found.raw }) };
};

describe('requestedTestResult', () => {
  test.each([
    ['a number', 6],
    ['a string', '6'],
    ['a string with a leading zero and spaces', ' 06 '],
    ['the row name', 'CARD_EXPIRED'],
  ])('When RequestedTestAcquirerResponseCode is %s, then the row of code 6 is asked for', (_, code) => {
    expect(asked('John Smith', { RequestedTestAcquirerResponseCode: code })).toEqual({ holderName: 'CARD_EXPIRED' });
  });

  test.each([['30'], ['47'], ['-1'], ['6.0'], [''], ['card_expired'], [true]])('When the code is %p, then nothing is asked for', (code) => {
    expect(asked('John Smith', { RequestedTestAcquirerResponseCode: code })).toBeUndefined();
  });

  test('When a code and a holder name are both given, then the code decides; without a code, the holder name does', () => {
    expect(asked('DECLINED', { RequestedTestAcquirerResponseCode: '1' })).toEqual({ holderName: 'APPROVED' });
    expect(asked('DECLINED', { RequestedTestAcquirerResponseCode: '99' })).toEqual({ holderName: 'DECLINED' });
    expect(asked('REFUSED', undefined)).toEqual({ holderName: 'DECLINED' });
  });

  test('When the holder name is `<name> : <raw response>`, then the row is asked for with that raw response', () => {
    expect(asked('DECLINED : 05 : Do not honor')).toEqual({ holderName: 'DECLINED', raw: '05 : Do not honor' });
    expect(asked('NOT_ENOUGH_BALANCE:51')).toEqual({ holderName: 'NOT_ENOUGH_BALANCE', raw: '51' });
    expect(asked('DECLINED :')).toEqual({ holderName: 'DECLINED' });
    expect(asked('Jane : Doe')).toBeUndefined();
    expect(asked('declined')).toBeUndefined();
    expect(asked(null)).toBeUndefined();
  });
});

describe('the test table', () => {
  test('When its rows are read, then codes and holder names (aliases included) are each used once', () => {
    const names = TEST_RESULTS.flatMap((r) => [r.holderName, ...(r.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(TEST_RESULTS.map((r) => r.code)).size).toBe(TEST_RESULTS.length);
  });

  test('When a row fails, then its refusal carries the row code as refusalReasonCode; Authorised and Received rows refuse nothing', () => {
    for (const row of TEST_RESULTS) {
      const refusal = refusalOfRow(row);
      if (row.resultCode === 'Authorised' || row.resultCode === 'Received') expect(refusal).toBeUndefined();
      else expect(refusal).toEqual({ reason: row.refusalReason, code: String(row.code), resultCode: row.resultCode });
    }
    expect(TEST_REFUSALS.REFUSED).toEqual(TEST_REFUSALS.DECLINED);
    expect(TEST_REFUSALS.PENDING).toBeUndefined();
  });
});
