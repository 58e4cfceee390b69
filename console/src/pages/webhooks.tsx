import { useEffect, useState } from 'preact/hooks';
import { consoleApi, type Delivery, errorText, failureText, managementApi, type Session, type TestOutput, type Webhook } from '../api.js';
import { usePageTitle, useShell } from '../shell.js';
import { Badge, ErrorMessage, TableRegion } from '../components.js';
import { Link } from '../router.js';
import { DeliveryView } from './payment.js';

/** A webhook with who owns it: the company, or one merchant account (their management paths differ). */
interface Owned {
  webhook: Webhook;
  owner: { companyId: string } | { merchantId: string };
}

/** Every webhook the session reaches: the company's own (company level) and each merchant account's. */
async function listWebhooks(session: Session): Promise<{ webhooks: Owned[]; errors: string[] }> {
  const webhooks: Owned[] = [];
  const errors: string[] = [];
  const query = { pageNumber: 1, pageSize: 100 };
  if (session.level === 'company') {
    const { data, error, response } = await managementApi.GET('/companies/{companyId}/webhooks', { params: { path: { companyId: session.companyId }, query } });
    if (data) webhooks.push(...(data.data ?? []).map((webhook) => ({ webhook, owner: { companyId: session.companyId } })));
    else errors.push(`Company ${session.companyId}: ${errorText(error, response)}`);
  }
  for (const merchantId of session.merchantAccounts) {
    const { data, error, response } = await managementApi.GET('/merchants/{merchantId}/webhooks', { params: { path: { merchantId }, query } });
    if (data) webhooks.push(...(data.data ?? []).map((webhook) => ({ webhook, owner: { merchantId } })));
    else errors.push(`Merchant account ${merchantId}: ${errorText(error, response)}`);
  }
  return { webhooks, errors };
}

/** A delivery given up on, or one whose receiver refused or missed an attempt (retried or not). */
const hadFailure = (delivery: Delivery) => delivery.status === 'failed' || delivery.attempts.some((attempt) => attempt.outcome !== 'accepted');

const ownerName = (owner: Owned['owner']) => ('companyId' in owner ? `company ${owner.companyId}` : `merchant account ${owner.merchantId}`);

function TestResults(props: { results: TestOutput[] }) {
  return (
    <TableRegion caption="Test call results">
      <thead>
        <tr>
          <th scope="col">Merchant account</th>
          <th scope="col">Result</th>
          <th scope="col" class="number">
            Status code
          </th>
          <th scope="col" class="number">
            Response time
          </th>
          <th scope="col">Receiver's answer</th>
        </tr>
      </thead>
      <tbody>
        {props.results.map((result, i) => (
          <tr key={i}>
            <td>{result.merchantId}</td>
            <td>
              <Badge tone={result.status === 'success' ? 'good' : 'bad'}>{result.status}</Badge>
            </td>
            <td class="number">{result.responseCode}</td>
            <td class="number">{result.responseTime}</td>
            <td>
              <code class="answer">{result.output}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </TableRegion>
  );
}

function WebhookCard(props: { owned: Owned; reload: () => void }) {
  const { webhook, owner } = props.owned;
  const { announce } = useShell();
  const [deliveries, setDeliveries] = useState<Delivery[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [testing, setTesting] = useState(false);
  const [results, setResults] = useState<TestOutput[] | undefined>();
  const [testError, setTestError] = useState<string | undefined>();
  const [failedOnly, setFailedOnly] = useState(false);

  const loadDeliveries = async () => {
    try {
      const { data, error: failure, response } = await consoleApi.GET('/webhooks/{webhookId}/deliveries', { params: { path: { webhookId: webhook.id } } });
      if (!data) return setError(errorText(failure, response));
      setError(undefined);
      setDeliveries(data.data);
    } catch (cause) {
      setError(failureText(cause));
    }
  };
  useEffect(() => void loadDeliveries(), [webhook.id]);

  const test = async () => {
    setTesting(true);
    setTestError(undefined);
    try {
      const answer =
        'companyId' in owner
          ? await managementApi.POST('/companies/{companyId}/webhooks/{webhookId}/test', {
              params: { path: { companyId: owner.companyId, webhookId: webhook.id } },
              body: {},
            })
          : await managementApi.POST('/merchants/{merchantId}/webhooks/{webhookId}/test', {
              params: { path: { merchantId: owner.merchantId, webhookId: webhook.id } },
              body: {},
            });
      if (!answer.data) return setTestError(errorText(answer.error, answer.response));
      const sent = answer.data.data ?? [];
      setResults(sent);
      announce(`Test call to ${webhook.id}: ${sent.filter((r) => r.status === 'success').length} of ${sent.length} accepted.`);
      props.reload();
    } catch (cause) {
      setTestError(failureText(cause));
    } finally {
      setTesting(false);
    }
  };

  const headingId = `webhook-${webhook.id}`;
  const failing = deliveries?.filter(hadFailure) ?? [];
  const shown = (failedOnly ? failing : deliveries) ?? [];
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        Webhook <span class="mono">{webhook.id}</span>
      </h2>
      <dl class="facts">
        <dt>Receiver</dt>
        <dd class="mono">{webhook.url}</dd>
        <dt>Belongs to</dt>
        <dd>{ownerName(owner)}</dd>
        <dt>Type</dt>
        <dd>{webhook.type}</dd>
        <dt>Active</dt>
        <dd>{webhook.active ? 'yes' : 'no'}</dd>
        <dt>State</dt>
        <dd>{webhook.hasError ? <Badge tone="bad">has errors: its last delivery failed</Badge> : <Badge tone="good">no error</Badge>}</dd>
      </dl>
      <div class="actions">
        <button type="button" disabled={testing} onClick={() => void test()}>
          {testing ? 'Sending test…' : `Send a test call to ${webhook.id}`}
        </button>
        <button type="button" class="secondary" onClick={() => void loadDeliveries()}>
          Refresh deliveries of {webhook.id}
        </button>
      </div>
      <ErrorMessage text={testError} />
      {results && <TestResults results={results} />}
      <h3>Recent deliveries</h3>
      <ErrorMessage text={error} />
      {deliveries && deliveries.length === 0 && <p>No delivery yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <>
          <p>
            {deliveries.length} recent, {failing.length} with a failed attempt.
          </p>
          <div class="check">
            <input id={`failed-only-${webhook.id}`} type="checkbox" checked={failedOnly} onChange={(event) => setFailedOnly(event.currentTarget.checked)} />
            <label for={`failed-only-${webhook.id}`}>Show only deliveries with a failed attempt</label>
          </div>
          <ul class="deliveries">
            {shown.map((delivery) => (
              <li key={`${delivery.eventId}`}>
                <p class="muted">
                  Payment <Link to={`/payments/${encodeURIComponent(delivery.pspReference)}`}>{delivery.pspReference}</Link> of {delivery.merchantAccount}
                </p>
                <DeliveryView delivery={delivery} owner={owner} onResent={() => void loadDeliveries()} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function Webhooks() {
  usePageTitle('Webhooks');
  const { session } = useShell();
  const [state, setState] = useState<{ webhooks: Owned[]; errors: string[] } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const load = () =>
    listWebhooks(session)
      .then(setState)
      .catch((cause: unknown) => setError(failureText(cause)));
  useEffect(() => void load(), [session.csrfToken]);
  const noRole = !session.roles.some((role) => role.startsWith('Management API - Webhooks'));
  return (
    <>
      <h1 tabIndex={-1}>Webhooks</h1>
      {noRole && (
        <p class="notice">
          This credential has no webhook role (Management API - Webhooks read, or read and write), so the management API refuses to list its webhooks. Sign in
          with a credential that has one to see them.
        </p>
      )}
      <ErrorMessage text={error} />
      {!state && !error && <p>Loading webhooks…</p>}
      {state && state.errors.length > 0 && (
        <ul class="error-list" aria-label="Webhooks that could not be listed">
          {state.errors.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
      {state && state.webhooks.length === 0 && <p>No webhook within reach of this credential.</p>}
      {state?.webhooks.map((owned) => (
        <WebhookCard key={owned.webhook.id} owned={owned} reload={() => void load()} />
      ))}
    </>
  );
}
