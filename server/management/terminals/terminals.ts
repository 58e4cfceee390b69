import type { components } from '../../../generated/management.js';
import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { Terminal } from '../../store/types.js';
import { pageOf, paginated } from '../pagination.js';
import * as domain from './terminals.domain.js';

type TerminalView = components['schemas']['Terminal'];

export const toTerminalView = (t: Terminal): TerminalView => ({
  id: t.id,
  model: t.model,
  serialNumber: t.serialNumber,
  firmwareVersion: t.firmwareVersion,
  countryCode: t.countryCode,
  assignment: {
    companyId: t.companyId,
    merchantId: t.merchantId,
    ...(t.storeId !== null && { storeId: t.storeId }),
    status: t.status,
  },
});

/** GET /terminals */
export const listTerminals = operation('listTerminals')(async ({ query, caller: { credential }, req }, deps) => {
  const page = pageOf(query, 20);
  const { items, total } = await deps.store.read((tx) => domain.listTerminals(tx, credential, query, page));
  return paginated(`${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`, '/terminals', page, items.map(toTerminalView), total);
});

/** POST /sandbox/terminals (sandbox only) */
export const boardSandboxTerminal = operation('boardSandboxTerminal')(async ({ body, caller: { credential } }, deps) => {
  domain.assertSandbox(deps.config.mode);
  return toTerminalView(await deps.store.transaction((tx) => domain.boardSandboxTerminal(tx, credential, body)));
});
