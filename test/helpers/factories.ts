import type { components } from '../../generated/checkout.js';

type PaymentRequest = components['schemas']['PaymentRequest'];

let counter = 0;
/** A unique merchant reference per call. */
export const uniqueReference = (prefix = 'order') => `${prefix}-${process.pid}-${++counter}`;

/** A card payment request for the demo e-commerce merchant; override anything. */
export function buildPaymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    amount: { currency: 'EUR', value: 1000 },
    reference: uniqueReference(),
    merchantAccount: 'DemoMerchantECOM',
    returnUrl: 'https://shop.example.com/checkout/return',
    paymentMethod: {
      type: 'scheme',
      encryptedCardNumber: 'test_4111111111111111',
      encryptedExpiryMonth: 'test_03',
      encryptedExpiryYear: 'test_2030',
      encryptedSecurityCode: 'test_737',
      holderName: 'John Smith',
    },
    ...overrides,
  };
}

/** A raw-card variant of the payment method. */
export const rawCard = (number: string, overrides: Record<string, string> = {}) => ({
  type: 'scheme' as const,
  number,
  expiryMonth: '03',
  expiryYear: '2030',
  cvc: '737',
  holderName: 'John Smith',
  ...overrides,
});

/** What Adyen's web library (Drop-in, Components) adds to every payment's state data besides the method's fields. */
export const webClientState = {
  clientStateDataIndicator: true,
  origin: 'https://shop.example.com',
  browserInfo: {
    acceptHeader: '*/*',
    colorDepth: 24,
    language: 'en-US',
    javaEnabled: false,
    screenHeight: 1080,
    screenWidth: 1920,
    userAgent: 'Mozilla/5.0',
    timeZoneOffset: -60,
  },
  riskData: { clientData: 'eyJ2ZXJzaW9uIjoiMS4wLjAifQ==' },
};
