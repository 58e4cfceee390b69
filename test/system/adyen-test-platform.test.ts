/**
 * The example suite written for Adyen's test platform (examples/adyen-test-platform), run
 * unchanged against the sandbox: the library pointed at it, the variables set, the sandbox's
 * webhook dispatcher running as `npm start` runs it.
 */
import { afterAll } from '@jest/globals';
import { pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer } from '../helpers/start-server.js';

const server = await startServer({}, { https: true });
pointAdyenLibraryAt(server.baseUrl);
server.dispatcher.start();
process.env.ADYEN_API_KEY = COMPANY_KEY;
process.env.ADYEN_MERCHANT_ACCOUNT = 'DemoMerchantECOM';
delete process.env.WEBHOOK_PUBLIC_URL;

try {
  await import('../../examples/adyen-test-platform/unhappy-paths.test.js');
} catch (error) {
  // A suite that cannot load runs no hooks: the server would keep the worker alive.
  await server.dispatcher.stop();
  await server.stop();
  throw error;
}

// After the suite's own afterAll (which removes its webhook through the sandbox): jest runs them in order.
afterAll(async () => {
  await server.dispatcher.stop();
  await server.stop();
});
