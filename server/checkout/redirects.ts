import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/types.js';

export type RedirectOutcome = 'authorised' | 'refused';

const SECRET_SETTING = 'checkout.redirectSecret';

/**
 * Signs and reads the `redirectResult` the shopper brings back from the hosted 3D Secure page.
 * The secret is created once and stored, so results stay valid across restarts.
 */
export class RedirectSigner {
  private constructor(private readonly secret: Buffer) {}

  static async load(store: Store): Promise<RedirectSigner> {
    const secret = await store.transaction(async (tx) => {
      const saved = await tx.getSetting(SECRET_SETTING);
      if (saved) return saved;
      const fresh = randomBytes(32).toString('hex');
      await tx.putSetting(SECRET_SETTING, fresh);
      return fresh;
    });
    return new RedirectSigner(Buffer.from(secret, 'hex'));
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
