import { useEffect, useState } from 'preact/hooks';
import { consoleApi, errorText, failureText, type RequestLogEntry } from '../api.js';
import { usePageTitle } from '../shell.js';
import { Badge, ErrorMessage, TableRegion } from '../components.js';
import { formatTime } from '../format.js';
import { formText, Link, navigate, queryOf, useCurrentLocation } from '../router.js';

const FILTER_NAMES = ['path', 'status', 'requestId', 'pspReference'] as const;

export function RequestLog() {
  usePageTitle('Request log');
  const location = useCurrentLocation();
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, location.query.get(name) ?? ''])) as Record<(typeof FILTER_NAMES)[number], string>;
  const filterKey = FILTER_NAMES.map((name) => filters[name]).join('\n');
  const [entries, setEntries] = useState<RequestLogEntry[] | undefined>();
  const [cursor, setCursor] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);

  const load = async (after?: string) => {
    setLoading(true);
    setError(undefined);
    try {
      const status = Number(filters.status);
      const {
        data,
        error: failure,
        response,
      } = await consoleApi.GET('/requests', {
        params: {
          query: {
            path: filters.path || undefined,
            status: filters.status && Number.isInteger(status) ? status : undefined,
            requestId: filters.requestId || undefined,
            pspReference: filters.pspReference || undefined,
            cursor: after,
            limit: 50,
          },
        },
      });
      if (!data) return setError(errorText(failure, response));
      setEntries((before) => (after ? [...(before ?? []), ...data.data] : data.data));
      setCursor(data.nextCursor);
    } catch (cause) {
      setError(failureText(cause));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    setEntries(undefined);
    void load();
  }, [filterKey]);

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    navigate(`/requests${queryOf(Object.fromEntries(FILTER_NAMES.map((name) => [name, formText(form, name)])))}`);
  };

  return (
    <>
      <h1 tabIndex={-1}>Request log</h1>
      <p class="lead">
        The recent requests to the checkout, management and client-side APIs that this credential may see, newest first. Entries appear about a second after
        their answer; bodies are redacted before they are stored.
      </p>
      <form class="filters" role="search" aria-label="Request log" onSubmit={search} key={filterKey}>
        <div class="field wide">
          <label for="r-path">Path starts with</label>
          <input id="r-path" name="path" defaultValue={filters.path} placeholder="/payments" />
        </div>
        <div class="field">
          <label for="r-status">HTTP status</label>
          <input id="r-status" name="status" inputMode="numeric" pattern="[1-5][0-9][0-9]" defaultValue={filters.status} />
        </div>
        <div class="field">
          <label for="r-id">Request id</label>
          <input id="r-id" name="requestId" defaultValue={filters.requestId} />
        </div>
        <div class="field">
          <label for="r-psp">pspReference</label>
          <input id="r-psp" name="pspReference" defaultValue={filters.pspReference} />
        </div>
        <div class="actions">
          <button type="submit">Filter</button>
          <button type="button" class="secondary" onClick={() => navigate('/requests')}>
            Clear
          </button>
          <button type="button" class="secondary" onClick={() => void load()}>
            Refresh
          </button>
        </div>
      </form>
      <ErrorMessage text={error} />
      {entries === undefined && !error && <p>Loading the log…</p>}
      {entries !== undefined && entries.length === 0 && <p>No request matches.</p>}
      {entries !== undefined && entries.length > 0 && (
        <TableRegion caption={`Requests (${entries.length} shown)`}>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
              <th scope="col" class="number">
                Duration
              </th>
              <th scope="col">Credential</th>
              <th scope="col">Request id</th>
              <th scope="col">Payment</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <Link to={`/requests/${encodeURIComponent(entry.id)}`}>
                    {entry.method} {entry.area} {entry.path}
                  </Link>
                </td>
                <td>
                  <Badge tone={entry.status < 400 ? 'good' : 'bad'}>{entry.status}</Badge>
                </td>
                <td>
                  <time dateTime={entry.occurredAt}>{formatTime(entry.occurredAt)}</time>
                </td>
                <td class="number">{entry.durationMs} ms</td>
                <td>{entry.credentialUsername ?? ''}</td>
                <td class="mono">{entry.requestId}</td>
                <td>{entry.pspReference && <Link to={`/payments/${encodeURIComponent(entry.pspReference)}`}>{entry.pspReference}</Link>}</td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      )}
      {cursor && (
        <button type="button" class="secondary" disabled={loading} onClick={() => void load(cursor)}>
          {loading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
