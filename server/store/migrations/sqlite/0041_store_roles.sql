-- The seeded company credential has every role: it gets the roles of stores and sandbox terminals.
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Management API - Stores read')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Management API - Stores read');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Management API - Stores read and write')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Management API - Stores read and write');
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Management API - Assign Terminal')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Management API - Assign Terminal');
