-- The seeded company credential has every role: it gets the other API credential roles Adyen documents (no effect here).
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Merchant Recurring role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Merchant Recurring role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Checkout encrypted cardholder data'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Checkout encrypted cardholder data';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Data Protection API'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Data Protection API';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('API PCI Payments role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'API PCI Payments role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('API Payment RefundWithData'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'API Payment RefundWithData';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('API Clientside Encryption Payments role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'API Clientside Encryption Payments role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('API tokenise payment details'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'API tokenise payment details';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('General API Payments role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'General API Payments role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('API Supply MPI data with Payments'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'API Supply MPI data with Payments';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('API Authorise Referred Payments'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'API Authorise Referred Payments';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('API to retrieve authentication data'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'API to retrieve authentication data';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('API surcharge cost estimation and regulatory information'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'API surcharge cost estimation and regulatory information';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('CSC Tokenization Webservice role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'CSC Tokenization Webservice role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('ThreeDSecure WebService Role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'ThreeDSecure WebService Role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Mastercard inControl service'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Mastercard inControl service';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Merchant iDeal-API Webservice role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Merchant iDeal-API Webservice role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Merchant PAL Donation role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Merchant PAL Donation role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Merchant PAL Charity role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Merchant PAL Charity role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Merchant Payout role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Merchant Payout role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Store payout detail'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Store payout detail';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Store payout detail and submit payout - withdrawal'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Store payout detail and submit payout - withdrawal';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Merchant Report Download role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Merchant Report Download role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Merchant Rss feed role'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Merchant Rss feed role';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Management API - Terminal ordering read'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Management API - Terminal ordering read';
UPDATE api_credentials
   SET roles = roles || jsonb_build_array('Management API - Terminal ordering read and write'::text)
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Management API - Terminal ordering read and write';
