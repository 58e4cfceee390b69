import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { invalidField } from '../../kernel/errors.js';
import type { SettingsSections } from '../../store/types.js';

/** What answers show in place of a secret: fixed, so it tells nothing about the value (not even its length). */
export const MASK = '********';

/** A secret as stored: encrypted with the card vault key (the terminal needs the value, so it cannot be hashed). */
interface Sealed {
  sealed: string;
}

const isSealed = (v: unknown): v is Sealed => typeof v === 'object' && v !== null && typeof (v as Sealed).sealed === 'string';

/**
 * Where the secrets of the terminal settings are, as paths into the sections (`*`: every element
 * of a list). Passcodes are shown to whoever may see the section (the advanced role); every other
 * secret is answered as MASK.
 */
const REVEALED: readonly string[][] = ['adminMenuPin', 'refundPin', 'screenLockPin', 'txMenuPin'].map((pin) => ['passcodes', pin]);
const urlPasswords = (...at: string[]) => [
  [...at, 'eventLocalUrls', '*', 'password'],
  [...at, 'eventPublicUrls', '*', 'password'],
];
const MASKED: readonly string[][] = [
  ['nexo', 'encryptionKey', 'passphrase'],
  ['nexo', 'displayUrls', 'localUrls', '*', 'password'],
  ['nexo', 'displayUrls', 'publicUrls', '*', 'password'],
  ...urlPasswords('nexo', 'eventUrls'),
  ...urlPasswords('connectivity', 'terminalIPAddressURL'),
  ...['psk', 'eapPwd', 'eapClientPwd'].map((field) => ['wifiProfiles', 'profiles', '*', field]),
  ['wifiProfiles', 'profiles', '*', 'eapClientKey', 'data'],
];
const SECRETS = [...REVEALED, ...MASKED];

type Visit = (value: unknown, at: string) => unknown;

/**
 * A copy of `node` with `visit` applied to every value found at `path` (list elements where the
 * path has `*`); `at` names the place (`wifiProfiles.profiles.0.psk`). Absent places are skipped.
 */
function mapAt(node: unknown, path: readonly string[], visit: Visit, at = ''): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return visit(node, at);
  if (head === '*') return Array.isArray(node) ? node.map((item, i) => mapAt(item, rest, visit, `${at}.${i}`)) : node;
  if (typeof node !== 'object' || node === null || Array.isArray(node) || !(head in node)) return node;
  const record = node as Record<string, unknown>;
  return { ...record, [head]: mapAt(record[head], rest, visit, at ? `${at}.${head}` : head) };
}

/** The value at a concrete place (`a.b.0.c`), or undefined. */
function valueAt(node: unknown, at: string): unknown {
  return at.split('.').reduce<unknown>((n, key) => (typeof n === 'object' && n !== null ? (n as Record<string, unknown>)[key] : undefined), node);
}

const each = (sections: SettingsSections, paths: readonly string[][], visit: Visit): SettingsSections =>
  paths.reduce<SettingsSections>((acc, path) => mapAt(acc, path, visit) as SettingsSections, sections);

/**
 * The sections of an update as this level stores them: every secret encrypted. A secret sent as
 * MASK (read, changed elsewhere, sent back) keeps what this level stores at the same place; when it
 * stores nothing there, the value cannot be restored and the update is refused (422).
 */
export function sealSecrets(update: SettingsSections, stored: SettingsSections, vault: CardVault): SettingsSections {
  return each(update, SECRETS, (value, at) => {
    if (value === MASK) {
      const kept = valueAt(stored, at);
      if (kept === undefined) throw invalidField(at, MASK, 'is masked: send the value itself, this level has none to keep');
      return kept;
    }
    return typeof value === 'string' ? ({ sealed: vault.encrypt(value) } satisfies Sealed) : value;
  });
}

/** Settings as answered: passcodes readable (only whoever may see them gets the section), other secrets as MASK. */
export function presentSecrets(sections: SettingsSections, vault: CardVault): SettingsSections {
  // A passcode stored before secrets were encrypted is a plain string: shown as it is.
  const revealed = each(sections, REVEALED, (value) => (isSealed(value) ? vault.decrypt(value.sealed) : value));
  return each(revealed, MASKED, () => MASK);
}
