import { operation } from '../kernel/http/handler.js';
import { ApiError, ERR_FIELD_INVALID, ERR_NOT_FOUND_ENTITY } from '../kernel/errors.js';
import { scopeOf } from './scope.js';
import { requestView } from './views.js';

const DEFAULT_LIMIT = 50;

const parsedJson = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

/** GET /requests: the log of the credential's scope, newest first; the cursor is the last entry's id. */
export const listConsoleRequests = operation('listConsoleRequests')(async ({ query, caller }, deps) => {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const cursor = query.cursor;
  if (cursor !== undefined && !/^[0-9]{1,18}$/.test(cursor)) {
    throw new ApiError(ERR_FIELD_INVALID, {
      message: 'Invalid field: cursor is not one this API gave',
      invalidFields: [{ name: 'cursor', value: cursor, message: 'unknown cursor' }],
    });
  }
  const entries = await deps.store.read((tx) =>
    tx.requestLog.list(scopeOf(caller.credential), {
      ...(query.path !== undefined && { path: query.path }),
      ...(query.status !== undefined && { status: Number(query.status) }),
      ...(query.requestId !== undefined && { requestId: query.requestId }),
      ...(query.pspReference !== undefined && { pspReference: query.pspReference }),
      ...(cursor !== undefined && { beforeId: Number(cursor) }),
      limit: limit + 1,
    }),
  );
  const page = entries.slice(0, limit);
  return { data: page.map(requestView), ...(entries.length > limit && { nextCursor: String(page[page.length - 1]!.id) }) };
});

/** GET /requests/{requestLogId}: one entry with its (already redacted) bodies. */
export const getConsoleRequest = operation('getConsoleRequest')(async ({ path, caller }, deps) => {
  const entry = await deps.store.read((tx) => tx.requestLog.get(scopeOf(caller.credential), Number(path.requestLogId)));
  if (!entry) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Request log entry ${path.requestLogId} not found` });
  return {
    entry: requestView(entry),
    ...(entry.query !== null && { query: entry.query }),
    ...(entry.requestBody !== null && { requestBody: parsedJson(entry.requestBody) }),
    ...(entry.responseBody !== null && { responseBody: parsedJson(entry.responseBody) }),
  };
});
