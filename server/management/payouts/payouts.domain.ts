import { randomBytes } from 'node:crypto';
import { ApiError, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import type { Credential, PayoutSetting } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleMerchant } from '../accounts/accounts.domain.js';

/** The sandbox's bank-account verification: test values at the end of the identifier decide it. */
export function verify(transferInstrumentId: string): PayoutSetting['verificationStatus'] {
  if (transferInstrumentId.endsWith('INVALID')) return 'invalid';
  if (transferInstrumentId.endsWith('REJECTED')) return 'rejected';
  if (transferInstrumentId.endsWith('PENDING')) return 'pending';
  return 'valid';
}

/** Payouts may happen only to a verified account. */
export const allowedOf = (s: PayoutSetting) => s.verificationStatus === 'valid';

/**
 * The design's state table, on the server clock: with `enabled` false, once `enabledFromDate`
 * arrives payouts switch on and the date is cleared. With `enabled` true the date only says from
 * when, so it stays. Applied (and stored) whenever a setting is read.
 */
export async function current(tx: Tx, now: Date, setting: PayoutSetting): Promise<PayoutSetting> {
  if (setting.enabled || setting.enabledFromDate === null || Date.parse(setting.enabledFromDate) > now.getTime()) return setting;
  const switched: PayoutSetting = { ...setting, enabled: true, enabledFromDate: null, updatedAt: now.toISOString() };
  await tx.payouts.update(switched);
  return switched;
}

async function settingOf(tx: Tx, now: Date, credential: Credential, merchantId: string, id: string): Promise<PayoutSetting> {
  await visibleMerchant(tx, credential, merchantId);
  const setting = await tx.payouts.get(id);
  if (!setting || setting.merchantId !== merchantId) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Payout setting ${id} not found` });
  return current(tx, now, setting);
}

export async function listPayoutSettings(tx: Tx, now: Date, credential: Credential, merchantId: string): Promise<PayoutSetting[]> {
  await visibleMerchant(tx, credential, merchantId);
  return Promise.all((await tx.payouts.list(merchantId)).map((s) => current(tx, now, s)));
}

export async function addPayoutSetting(
  tx: Tx,
  now: Date,
  credential: Credential,
  merchantId: string,
  input: { transferInstrumentId: string; enabled?: boolean; enabledFromDate?: string },
): Promise<PayoutSetting> {
  const merchant = await visibleMerchant(tx, credential, merchantId);
  const setting: PayoutSetting = {
    id: `PSTR${randomBytes(11).toString('hex').toUpperCase().slice(0, 21)}`,
    merchantId: merchant.id,
    transferInstrumentId: input.transferInstrumentId,
    enabled: input.enabled ?? true,
    enabledFromDate: input.enabledFromDate ? new Date(input.enabledFromDate).toISOString() : null,
    priority: 'normal',
    verificationStatus: verify(input.transferInstrumentId),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.payouts.insert(setting);
  return current(tx, now, setting);
}

export const getPayoutSetting = settingOf;

export async function updatePayoutSetting(
  tx: Tx,
  now: Date,
  credential: Credential,
  merchantId: string,
  id: string,
  input: { enabled?: boolean },
): Promise<PayoutSetting> {
  const setting = await settingOf(tx, now, credential, merchantId, id);
  if (input.enabled === undefined) return setting;
  const updated: PayoutSetting = { ...setting, enabled: input.enabled, updatedAt: now.toISOString() };
  await tx.payouts.update(updated);
  return updated;
}

export async function deletePayoutSetting(tx: Tx, now: Date, credential: Credential, merchantId: string, id: string): Promise<void> {
  await settingOf(tx, now, credential, merchantId, id);
  await tx.payouts.delete(id);
}
