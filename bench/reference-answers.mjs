// The fixed answers of the benchmark's reference points (bench/reference-servers.mjs) and of the
// ablation's frame build (bench/ablation.mjs): the bodies the server answers in the scenarios,
// so that response validation costs the same.

/** The payment the references are asked to capture (they answer fixed JSON; Prism checks only its form). */
export const REFERENCE_PSP = '993617894906488A';
const PAYMENT = {
  pspReference: '993617894906488A',
  resultCode: 'Authorised',
  merchantReference: 'bench',
  amount: { currency: 'EUR', value: 1000 },
  paymentMethod: { brand: 'visa', type: 'scheme' },
  additionalData: {
    cardSummary: '1111',
    cardBin: '411111',
    expiryDate: '3/2030',
    paymentMethod: 'visa',
    refusalReasonRaw: 'AUTHORISED',
    authCode: '123456',
    cardHolderName: 'Bench',
  },
};
const CAPTURE = {
  merchantAccount: 'DemoMerchantECOM',
  paymentPspReference: REFERENCE_PSP,
  pspReference: '993617894906501D',
  status: 'received',
  amount: { currency: 'EUR', value: 1000 },
};
const APPS = {
  data: Array.from({ length: 20 }, (_, i) => ({
    id: `ANDABENCH${String(i).padStart(20, '0')}`,
    status: 'ready',
    packageName: 'com.example.bench',
    versionCode: i + 1,
    versionName: '1.0.0',
    label: 'Bench',
  })),
};
/** [status, body] answering a scenario's request. */
export const fixed = (method, path) => (path.endsWith('/captures') ? [201, CAPTURE] : method === 'GET' ? [200, APPS] : [200, PAYMENT]);
