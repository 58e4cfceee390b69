-- The seeded company credential has every role: it gets the roles of stores and sandbox terminals.
UPDATE api_credentials
   SET roles = roles || '["Management API - Stores read"]'::jsonb
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Management API - Stores read';
UPDATE api_credentials
   SET roles = roles || '["Management API - Stores read and write"]'::jsonb
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Management API - Stores read and write';
UPDATE api_credentials
   SET roles = roles || '["Management API - Assign Terminal"]'::jsonb
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT roles ? 'Management API - Assign Terminal';
