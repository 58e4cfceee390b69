import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerSecret } from './server-secret.js';
import type { Store } from '../../store/tx.js';

export type RedirectOutcome = 'authorised' | 'refused';

/** Where earlier versions kept the signing secret in plain text; deleted on start. */
const LEGACY_SECRET_SETTING = 'checkout.redirectSecret';

/**
 * Signs and reads the `redirectResult` the shopper brings back from the hosted 3D Secure page.
 * The signing key is derived from the server secret and never stored, so results stay valid
 * across restarts as long as the server secret stays the same.
 */
export class RedirectSigner {
  private constructor(private readonly secret: Buffer) {}

  /**
   * The signer keyed with the server secret. Earlier versions signed with a random secret kept in
   * the settings table; that row is deleted here, so redirect results, session data and origin
   * keys made before the upgrade no longer verify (shoppers mid-redirect start again). Accepted:
   * they are short-lived, and keeping the old secret would keep it in plain text.
   */
  static async load(store: Store, secret: ServerSecret): Promise<RedirectSigner> {
    await store.transaction(async (tx) => {
      if ((await tx.settings.get(LEGACY_SECRET_SETTING)) !== undefined) await tx.settings.delete(LEGACY_SECRET_SETTING);
    });
    return new RedirectSigner(secret.derive('redirect-signing'));
  }

  sign(pspReference: string, outcome: RedirectOutcome): string {
    const payload = Buffer.from(JSON.stringify({ psp: pspReference, outcome })).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The payment and outcome of a redirect result, or undefined when it was not made by this server. */
  read(redirectResult: string): { pspReference: string; outcome: RedirectOutcome } | undefined {
    const [payload, mac, extra] = redirectResult.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { psp?: unknown; outcome?: unknown };
      if (typeof parsed.psp !== 'string' || (parsed.outcome !== 'authorised' && parsed.outcome !== 'refused')) return undefined;
      return { pspReference: parsed.psp, outcome: parsed.outcome };
    } catch {
      return undefined;
    }
  }

  /** A keyed digest of any text with the server secret (used for origin keys and session results too). */
  mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}
