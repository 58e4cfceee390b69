import { createHash } from 'node:crypto';
import { ApiError, ERR_FIELD_INVALID, type InvalidField } from '../../kernel/errors.js';
import { parseOrigin } from '../../kernel/auth/origins.js';
import type { Credential } from '../../store/types.js';

/** POST /originKeys (deprecated): a key per origin, bound to the company with the server secret. */
export function originKeys(credential: Credential, domains: string[], mac: (text: string) => string): Record<string, string> {
  const problems: InvalidField[] = [];
  const keys: Record<string, string> = {};
  const account = BigInt(`0x${createHash('sha256').update(credential.companyId).digest('hex').slice(0, 15)}`)
    .toString()
    .padStart(16, '0')
    .slice(-16);
  domains.forEach((domain, i) => {
    const parsed = parseOrigin(domain);
    if ('problem' in parsed) {
      problems.push({ name: `originDomains.${i}`, value: domain, message: parsed.problem });
      return;
    }
    const encoded = Buffer.from(parsed.origin).toString('base64url');
    keys[domain] = `pub.v2.${account}.${encoded}.${mac(`${credential.companyId}|${parsed.origin}`)}`;
  });
  const first = problems[0];
  if (first) throw new ApiError(ERR_FIELD_INVALID, { message: `Invalid field '${first.name}': ${first.message}`, invalidFields: problems });
  return keys;
}
