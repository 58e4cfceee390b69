import { useEffect, useState } from 'preact/hooks';
import { consoleApi, errorText, failureText, type RequestLogDetail } from '../api.js';
import { usePageTitle } from '../shell.js';
import { Badge, ErrorMessage } from '../components.js';
import { formatTime } from '../format.js';
import { Link } from '../router.js';

/** A body as the server stored it (already redacted), indented for reading. */
function Body(props: { label: string; body: unknown }) {
  const text = props.body === undefined || props.body === null ? '' : typeof props.body === 'string' ? props.body : JSON.stringify(props.body, null, 2);
  return (
    <section aria-label={props.label}>
      <h2>{props.label}</h2>
      {text ? (
        <pre class="body" tabIndex={0}>
          {text}
        </pre>
      ) : (
        <p class="muted">None.</p>
      )}
    </section>
  );
}

export function RequestDetail(props: { id: string }) {
  usePageTitle('Request');
  const [detail, setDetail] = useState<RequestLogDetail | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    setDetail(undefined);
    consoleApi
      .GET('/requests/{requestLogId}', { params: { path: { requestLogId: props.id } } })
      .then(({ data, error: failure, response }) => (data ? setDetail(data) : setError(errorText(failure, response))))
      .catch((cause: unknown) => setError(failureText(cause)));
  }, [props.id]);
  const entry = detail?.entry;
  return (
    <>
      <p class="breadcrumb">
        <Link to="/requests">Request log</Link>
      </p>
      <h1 tabIndex={-1}>{entry ? `${entry.method} ${entry.path}` : 'Request'}</h1>
      <ErrorMessage text={error} />
      {!detail && !error && <p>Loading the request…</p>}
      {detail && entry && (
        <>
          <dl class="facts">
            <dt>Time</dt>
            <dd>{formatTime(entry.occurredAt)}</dd>
            <dt>API</dt>
            <dd>{entry.area}</dd>
            <dt>Operation</dt>
            <dd>{entry.operationId ?? '—'}</dd>
            <dt>Status</dt>
            <dd>
              <Badge tone={entry.status < 400 ? 'good' : 'bad'}>{entry.status}</Badge>
            </dd>
            <dt>Duration</dt>
            <dd>{entry.durationMs} ms</dd>
            <dt>Request id</dt>
            <dd class="mono">{entry.requestId}</dd>
            {entry.credentialUsername && (
              <>
                <dt>Credential</dt>
                <dd>{entry.credentialUsername}</dd>
              </>
            )}
            {entry.idempotencyKey && (
              <>
                <dt>Idempotency key</dt>
                <dd class="mono">{entry.idempotencyKey}</dd>
              </>
            )}
            {entry.merchantAccount && (
              <>
                <dt>Merchant account</dt>
                <dd>{entry.merchantAccount}</dd>
              </>
            )}
            {entry.pspReference && (
              <>
                <dt>Payment</dt>
                <dd>
                  <Link to={`/payments/${encodeURIComponent(entry.pspReference)}`}>{entry.pspReference}</Link>
                </dd>
              </>
            )}
            {detail.query && (
              <>
                <dt>Query</dt>
                <dd class="mono">{detail.query}</dd>
              </>
            )}
          </dl>
          <p class="muted">Keys, passwords, card numbers, security codes and secrets were replaced before the entry was stored.</p>
          <Body label="Request body" body={detail.requestBody} />
          <Body label="Response body" body={detail.responseBody} />
        </>
      )}
    </>
  );
}
