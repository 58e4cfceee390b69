/** The API keys the test servers seed their demo credentials with. */
export const COMPANY_KEY = 'test-company-key-000000000000000001';
export const MERCHANT_KEY = 'test-merchant-key-00000000000000001';
