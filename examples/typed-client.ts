// Pays EUR 10.00 with a test card, then captures it, with the typed client.
// Run: npx tsc -p examples && node .tmp/examples/examples/typed-client.js
import { createCheckoutClient } from '../client/index.js';

const baseUrl = process.env.BASE_URL ?? 'http://localhost:8080';
const apiKey = process.env.API_KEY ?? 'my-local-company-key-123';
const checkout = createCheckoutClient({ baseUrl: `${baseUrl}/checkout/v71`, apiKey });

const { data, error } = await checkout.POST('/payments', {
  // Idempotency-Key added for you
  body: {
    merchantAccount: 'DemoMerchantECOM',
    reference: 'order-2',
    returnUrl: 'https://shop.example.com/return',
    amount: { currency: 'EUR', value: 1000 },
    paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'John Smith' },
  },
});
if (!data) throw new Error(`payment failed: ${JSON.stringify(error)}`);
console.log(`payment ${data.pspReference}: ${data.resultCode}`);

const capture = await checkout.POST('/payments/{paymentPspReference}/captures', {
  params: { path: { paymentPspReference: data.pspReference! } },
  body: { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1000 } },
});
if (!capture.data) throw new Error(`capture failed: ${JSON.stringify(capture.error)}`);
console.log(`capture ${capture.data.pspReference}: ${capture.data.status}`);
