// The shop page's script (bundled by server.mjs with esbuild): Drop-in of @adyen/adyen-web against
// the sandbox, from a session (`/?flow=sessions`) or in the advanced flow (`/?flow=advanced`), and
// the `/return` page that finishes a redirect. Every call with the API key goes through the
// example's backend (`/api/...`); the page holds only the public client key.
import { AdyenCheckout, Dropin, Card } from '@adyen/adyen-web';
import '@adyen/adyen-web/styles/adyen.css';

const show = (text) => (document.getElementById('result').textContent = text);
const post = async (path, body) => (await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
// Hands the library the backend's answer; an error answer (no resultCode) ends the payment as failed.
const answer = (actions, result) => (result.resultCode ? actions.resolve(result) : actions.reject());

async function main() {
  const flow = new URLSearchParams(location.search).get('flow') ?? 'sessions';
  if (location.pathname === '/return') {
    // Back from a redirect (iDEAL's bank page): the backend sends the redirectResult to /payments/details.
    const redirectResult = new URLSearchParams(location.search).get('redirectResult');
    const result = await post('/api/payments/details', { details: { redirectResult } });
    return show(result.resultCode ?? result.message);
  }
  const config = await (await fetch(`/api/config?flow=${flow}`)).json();
  const checkout = await AdyenCheckout({
    environment: 'test',
    clientKey: config.clientKey,
    // The client-side API of the sandbox; its path contains `test` because the library accepts a test_ client key only then.
    _environmentUrls: { api: config.api, analytics: config.api, cdn: { images: config.api, translations: config.api } },
    // The device fingerprint page is Adyen's, not the sandbox's.
    risk: { enabled: false },
    countryCode: 'NL',
    locale: 'en-US',
    ...(flow === 'sessions'
      ? { session: config.session }
      : {
          amount: config.amount,
          paymentMethodsResponse: config.paymentMethodsResponse,
          onSubmit: async (state, component, actions) => answer(actions, await post('/api/payments', state.data)),
          onAdditionalDetails: async (state, component, actions) => answer(actions, await post('/api/payments/details', state.data)),
        }),
    onPaymentCompleted: (result) => show(result.resultCode),
    onPaymentFailed: (result) => show(result?.resultCode ?? 'Failed'),
    onError: (error) => show(`Error: ${error.message}`),
  });
  new Dropin(checkout, { paymentMethodComponents: [Card] }).mount('#dropin');
}

main();
