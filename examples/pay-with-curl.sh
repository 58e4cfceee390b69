#!/bin/sh
# Pays EUR 10.00 with a test card. BASE_URL and API_KEY default to the server started above.
BASE_URL="${BASE_URL:-http://localhost:8080}"
API_KEY="${API_KEY:-my-local-company-key-123}"
curl -sS --fail-with-body "$BASE_URL/checkout/v71/payments" -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' -d '{
  "amount": {"currency": "EUR", "value": 1000}, "reference": "order-1", "merchantAccount": "DemoMerchantECOM",
  "returnUrl": "https://shop.example.com/return",
  "paymentMethod": {"type": "scheme", "encryptedCardNumber": "test_4111111111111111",
    "encryptedExpiryMonth": "test_03", "encryptedExpiryYear": "test_2030", "encryptedSecurityCode": "test_737"}}'
