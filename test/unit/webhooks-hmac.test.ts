import { describe, expect, test } from '@jest/globals';
import { hmacBase64, signItem, signingString, verifyHmacSignature } from '../../client/webhooks.js';

const KEY = 'DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00';

describe('Webhook HMAC signatures', () => {
  test('When the published test vector is signed, then the published signature comes out', () => {
    expect(hmacBase64(KEY, 'pspReference:originalReference:merchantAccount:reference:1000:EUR:REPORT_AVAILABLE:true')).toBe(
      'ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE=',
    );
  });

  test('When an item has no originalReference, then its place in the signed text is empty', () => {
    const item = {
      pspReference: 'P1',
      merchantAccountCode: 'M',
      merchantReference: 'R',
      amount: { currency: 'EUR', value: 1000 },
      eventCode: 'AUTHORISATION',
      success: 'true',
    };
    expect(signingString(item)).toBe('P1::M:R:1000:EUR:AUTHORISATION:true');
  });

  test('When an item is signed, then it verifies with the key and not with another key or after a change', () => {
    const item = {
      pspReference: 'P1',
      originalReference: 'O1',
      merchantAccountCode: 'M',
      merchantReference: 'R',
      amount: { currency: 'EUR', value: 1000 },
      eventCode: 'CAPTURE',
      success: 'true',
      additionalData: {} as Record<string, string>,
    };
    item.additionalData.hmacSignature = signItem(KEY, item);
    expect(verifyHmacSignature(KEY, item)).toBe(true);
    expect(verifyHmacSignature('00'.repeat(32), item)).toBe(false);
    expect(verifyHmacSignature(KEY, { ...item, amount: { currency: 'EUR', value: 1001 } })).toBe(false);
    expect(verifyHmacSignature(KEY, { ...item, additionalData: {} })).toBe(false);
  });
});
