#!/usr/bin/env node
// A shop that runs Adyen Web (Drop-in) against the sandbox: `npm run example:dropin`, then open
// /?flow=sessions or /?flow=advanced. Plain Node.js; the page's script (shop.js) is bundled with
// esbuild at start. BASE_URL (the sandbox), API_KEY (the company key the sandbox printed) and
// PORT (3000) change the defaults.
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const MERCHANT_ACCOUNT = 'DemoMerchantECOM';
// The merchant credential the sandbox seeds: its client key is the one the page uses.
const CREDENTIAL = 'S2-DEMOMERCHANT1';
const AMOUNT = { currency: 'EUR', value: 1000 };
// The methods the page has components for (Card; iDEAL is a redirect, which the library always has).
const METHODS = { countryCode: 'NL', allowedPaymentMethods: ['scheme', 'ideal'] };

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Shop</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/shop.css"><script src="/shop.js" defer></script></head>
<body><main style="max-width:560px;margin:auto;padding:16px"><h1>Shop</h1><p id="result" role="status"></p><div id="dropin"></div></main></body></html>`;

/** Starts the example; answers its address and a way to stop it. */
export async function startDropinExample({ baseUrl = 'http://localhost:8080', apiKey = 'my-local-company-key-123', port = 3000 } = {}) {
  const call = async (path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return response.json();
  };
  const { clientKey } = await call(`/management/v3/merchants/${MERCHANT_ACCOUNT}/apiCredentials/${CREDENTIAL}`);
  if (!clientKey) throw new Error(`no client key for ${CREDENTIAL}: is the sandbox at ${baseUrl}, and is API_KEY its company key?`);

  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('shop.js', import.meta.url))],
    bundle: true,
    write: false,
    outdir: 'bundle',
    logLevel: 'silent',
  });
  const file = (extension) => bundle.outputFiles.find((output) => output.path.endsWith(extension)).text;
  const files = { '/shop.js': ['text/javascript', file('.js')], '/shop.css': ['text/css', file('.css')] };

  let url;
  const checkout = (path, body) => call(`/checkout/v71${path}`, body);
  const order = () => ({ merchantAccount: MERCHANT_ACCOUNT, amount: AMOUNT, reference: `order-${Date.now()}`, returnUrl: `${url}/return` });
  const createSession = async () => {
    const { id, sessionData } = await checkout('/sessions', { ...order(), ...METHODS });
    return { id, sessionData };
  };
  // The page gets only what the library acts on (the pspReference and the rest stay on the server), or the error's message.
  const forPage = ({ resultCode, action, order, donationToken, message }) => (resultCode ? { resultCode, action, order, donationToken } : { message });
  // The backend's routes: what the page asks for, each answered with the sandbox's answer.
  const api = {
    'GET /api/config': async (query) => ({
      clientKey,
      api: `${baseUrl}/checkoutshopper/test/`,
      amount: AMOUNT,
      ...(query.get('flow') === 'advanced'
        ? {
            paymentMethodsResponse: await checkout('/paymentMethods', { merchantAccount: MERCHANT_ACCOUNT, amount: AMOUNT, channel: 'Web', ...METHODS }),
          }
        : { session: await createSession() }),
    }),
    'POST /api/payments': async (query, data) => forPage(await checkout('/payments', { ...order(), ...data, channel: 'Web', origin: url })),
    'POST /api/payments/details': async (query, data) => forPage(await checkout('/payments/details', data)),
  };

  const server = createServer(async (req, res) => {
    const { pathname, searchParams } = new URL(req.url, 'http://shop');
    const send = (type, body) => res.writeHead(200, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' }).end(body);
    try {
      const route = api[`${req.method} ${pathname}`];
      if (route) {
        let text = '';
        for await (const chunk of req) text += chunk;
        const answer = await route(searchParams, text ? JSON.parse(text) : undefined);
        return send('application/json', JSON.stringify(answer));
      }
      if (files[pathname]) return send(...files[pathname]);
      if (pathname === '/' || pathname === '/return') return send('text/html', PAGE);
      res.writeHead(404).end();
    } catch (error) {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startDropinExample({
    baseUrl: process.env.BASE_URL,
    apiKey: process.env.API_KEY,
    port: process.env.PORT === undefined ? undefined : Number(process.env.PORT),
  });
  console.log(`Shop on ${url}: ${url}/?flow=sessions (Drop-in from a session), ${url}/?flow=advanced (advanced flow)`);
}
