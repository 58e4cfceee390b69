-- The seeded company credential has every role: it gets the other API credential roles Adyen documents (no effect here).
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Merchant Recurring role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Merchant Recurring role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Checkout encrypted cardholder data')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Checkout encrypted cardholder data');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Data Protection API')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Data Protection API');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'API PCI Payments role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'API PCI Payments role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'API Payment RefundWithData')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'API Payment RefundWithData');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'API Clientside Encryption Payments role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'API Clientside Encryption Payments role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'API tokenise payment details')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'API tokenise payment details');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'General API Payments role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'General API Payments role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'API Supply MPI data with Payments')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'API Supply MPI data with Payments');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'API Authorise Referred Payments')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'API Authorise Referred Payments');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'API to retrieve authentication data')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'API to retrieve authentication data');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'API surcharge cost estimation and regulatory information')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'API surcharge cost estimation and regulatory information');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'CSC Tokenization Webservice role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'CSC Tokenization Webservice role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'ThreeDSecure WebService Role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'ThreeDSecure WebService Role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Mastercard inControl service')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Mastercard inControl service');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Merchant iDeal-API Webservice role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Merchant iDeal-API Webservice role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Merchant PAL Donation role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Merchant PAL Donation role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Merchant PAL Charity role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Merchant PAL Charity role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Merchant Payout role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Merchant Payout role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Store payout detail')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Store payout detail');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Store payout detail and submit payout - withdrawal')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Store payout detail and submit payout - withdrawal');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Merchant Report Download role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Merchant Report Download role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Merchant Rss feed role')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Merchant Rss feed role');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Management API - Terminal ordering read')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Management API - Terminal ordering read');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Management API - Terminal ordering read and write')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Management API - Terminal ordering read and write');
