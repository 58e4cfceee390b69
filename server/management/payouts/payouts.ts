import { operation } from '../../kernel/http/handler.js';
import type { PayoutSetting } from '../../store/types.js';
import * as payouts from './payouts.domain.js';

// Payout settings.

export const toPayoutView = (s: PayoutSetting) => ({
  id: s.id,
  transferInstrumentId: s.transferInstrumentId,
  allowed: payouts.allowedOf(s),
  enabled: s.enabled,
  ...(s.enabledFromDate !== null && { enabledFromDate: s.enabledFromDate }),
  priority: s.priority,
  verificationStatus: s.verificationStatus,
});

/** GET /merchants/{merchantId}/payoutSettings */
export const listPayoutSettings = operation('listPayoutSettings')(async ({ path, caller: { credential } }, deps) => {
  const list = await deps.store.transaction((tx) => payouts.listPayoutSettings(tx, deps.clock.now(credential.companyId), credential, path.merchantId));
  return { data: list.map(toPayoutView) };
});

/** POST /merchants/{merchantId}/payoutSettings */
export const addPayoutSetting = operation('addPayoutSetting')(async ({ body, path, caller: { credential } }, deps) =>
  toPayoutView(await deps.store.transaction((tx) => payouts.addPayoutSetting(tx, deps.clock.now(credential.companyId), credential, path.merchantId, body))),
);

/** GET /merchants/{merchantId}/payoutSettings/{payoutSettingsId} */
export const getPayoutSetting = operation('getPayoutSetting')(async ({ path, caller: { credential } }, deps) =>
  toPayoutView(
    await deps.store.transaction((tx) =>
      payouts.getPayoutSetting(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.payoutSettingsId),
    ),
  ),
);

/** PATCH /merchants/{merchantId}/payoutSettings/{payoutSettingsId} */
export const updatePayoutSetting = operation('updatePayoutSetting')(async ({ body, path, caller: { credential } }, deps) =>
  toPayoutView(
    await deps.store.transaction((tx) =>
      payouts.updatePayoutSetting(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.payoutSettingsId, body),
    ),
  ),
);

/** DELETE /merchants/{merchantId}/payoutSettings/{payoutSettingsId} */
export const deletePayoutSetting = operation('deletePayoutSetting')(async ({ path, caller: { credential } }, deps) => {
  await deps.store.transaction((tx) =>
    payouts.deletePayoutSetting(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.payoutSettingsId),
  );
});

// Payment method settings.
