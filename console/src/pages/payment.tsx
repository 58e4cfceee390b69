import { useEffect, useState } from 'preact/hooks';
import {
  checkoutApi,
  consoleApi,
  type Amount,
  type Delivery,
  errorText,
  failureText,
  managementApi,
  type Session,
  type Timeline,
  type TimelineEntry,
} from '../api.js';
import { usePageTitle, usePaymentFeed, useShell } from '../shell.js';
import { Badge, ErrorMessage, TableRegion, toneOfStatus } from '../components.js';
import { decimalOf, exponentOf, formatAmount, formatTime, parseDecimal, statusLabel } from '../format.js';
import { Link } from '../router.js';

type Kind = 'capture' | 'refund' | 'cancel';

const VERB: Record<Kind, string> = { capture: 'Capture', refund: 'Refund', cancel: 'Cancel' };

/**
 * Sends a delivery's event to its webhook again, through management's resend. The delivery names
 * its webhook but not whether it is a merchant account's or the company's: the merchant account's
 * path is tried first (a merchant-level key can use no other), then a company-level session tries
 * the company's.
 */
export async function resendDelivery(session: Session, delivery: Delivery, owner?: { companyId?: string; merchantId?: string }): Promise<string | undefined> {
  const path = { webhookId: delivery.webhookId, eventId: delivery.eventId };
  const viaMerchant = (merchantId: string) =>
    managementApi.POST('/merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend', { params: { path: { ...path, merchantId } } });
  const viaCompany = (companyId: string) =>
    managementApi.POST('/companies/{companyId}/webhooks/{webhookId}/events/{eventId}/resend', { params: { path: { ...path, companyId } } });
  let answer;
  if (owner?.merchantId) answer = await viaMerchant(owner.merchantId);
  else if (owner?.companyId) answer = await viaCompany(owner.companyId);
  else {
    answer = await viaMerchant(delivery.merchantAccount);
    if (answer.response.status === 404 && session.level === 'company') answer = await viaCompany(session.companyId);
  }
  return answer.error || !answer.data ? errorText(answer.error, answer.response) : undefined;
}

/** Every attempt of a delivery: when, what the receiver answered and how fast, or what failed. */
export function Attempts(props: { delivery: Delivery }) {
  const { delivery } = props;
  if (delivery.attempts.length === 0) return <p class="muted">No attempt yet.</p>;
  return (
    <TableRegion caption={`Attempts to deliver ${delivery.eventCode} (event ${delivery.eventId}) to webhook ${delivery.webhookId}`} hideCaption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Outcome</th>
          <th scope="col" class="number">
            Status code
          </th>
          <th scope="col" class="number">
            Response time
          </th>
          <th scope="col">Receiver's answer or error</th>
        </tr>
      </thead>
      <tbody>
        {delivery.attempts.map((attempt, i) => (
          <tr key={i}>
            <td>
              <time dateTime={attempt.attemptedAt}>{formatTime(attempt.attemptedAt)}</time>
            </td>
            <td>
              <Badge tone={toneOfStatus(attempt.outcome)}>{attempt.outcome}</Badge>
            </td>
            <td class="number">{attempt.statusCode ?? '—'}</td>
            <td class="number">{attempt.durationMs} ms</td>
            <td>
              {attempt.responseBody !== undefined && <code class="answer">{attempt.responseBody}</code>}
              {attempt.error && <span class="error-text">{attempt.error}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </TableRegion>
  );
}

/** A delivery's heading line, its attempts and its resend button. */
export function DeliveryView(props: { delivery: Delivery; owner?: { companyId?: string; merchantId?: string }; onResent: () => void }) {
  const { session, announce } = useShell();
  const { delivery } = props;
  const [message, setMessage] = useState<{ error?: string; done?: string }>({});
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      const error = await resendDelivery(session, delivery, props.owner);
      const done = `${delivery.eventCode} (event ${delivery.eventId}) is queued to webhook ${delivery.webhookId} again.`;
      setMessage(error ? { error } : { done });
      if (!error) {
        announce(done);
        props.onResent();
      }
    } catch (cause) {
      setMessage({ error: failureText(cause) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="delivery">
      <p>
        <strong>{delivery.eventCode}</strong> to webhook <code>{delivery.webhookId}</code>:{' '}
        <Badge tone={toneOfStatus(delivery.status)}>{delivery.status}</Badge>
        {delivery.nextAttemptAt && <span class="muted"> next attempt {formatTime(delivery.nextAttemptAt)}</span>}
      </p>
      <Attempts delivery={delivery} />
      {delivery.status !== 'pending' && (
        <button type="button" class="secondary" disabled={busy} onClick={() => void resend()}>
          Resend {delivery.eventCode} (event {delivery.eventId}) to {delivery.webhookId}
        </button>
      )}
      <ErrorMessage text={message.error} />
      {message.done && (
        <p class="success" role="status">
          {message.done}
        </p>
      )}
    </div>
  );
}

/**
 * What identifies an entry across reloads of the timeline: a resent delivery moves, and its
 * confirmation must stay with it.
 */
function entryKey(entry: TimelineEntry, index: number): string {
  if (entry.request) return `request ${entry.request.id}`;
  if (entry.delivery) return `delivery ${entry.delivery.webhookId} ${entry.delivery.eventId}`;
  if (entry.event) return `event ${entry.event.eventId}`;
  if (entry.modification) return `modification ${entry.modification.pspReference} ${entry.modification.kind} ${entry.modification.status}`;
  return `entry ${index}`;
}

function EntryView(props: { entry: TimelineEntry; reload: () => void }) {
  const { entry } = props;
  const time = <time dateTime={entry.at}>{formatTime(entry.at)}</time>;
  if (entry.kind === 'request' && entry.request) {
    const request = entry.request;
    return (
      <>
        <p class="entry-head">
          {time} <span class="kind">Request</span>
        </p>
        <p>
          <Link to={`/requests/${encodeURIComponent(request.id)}`}>
            {request.method} {request.path}
          </Link>{' '}
          <Badge tone={request.status < 400 ? 'good' : 'bad'}>{request.status}</Badge> <span class="muted">{request.durationMs} ms</span>
          {request.credentialUsername && <span class="muted"> by {request.credentialUsername}</span>}
        </p>
      </>
    );
  }
  if (entry.kind === 'modification' && entry.modification) {
    const modification = entry.modification;
    return (
      <>
        <p class="entry-head">
          {time} <span class="kind">Modification</span>
        </p>
        <p>
          {modification.kind} {modification.amount && formatAmount(modification.amount)}{' '}
          <Badge tone={toneOfStatus(modification.status)}>{modification.status}</Badge> <code>{modification.pspReference}</code>
        </p>
      </>
    );
  }
  if (entry.kind === 'event' && entry.event) {
    const event = entry.event;
    return (
      <>
        <p class="entry-head">
          {time} <span class="kind">Event</span>
        </p>
        <p>
          <strong>{event.eventCode}</strong> {formatAmount(event.amount)}{' '}
          <Badge tone={event.success ? 'good' : 'bad'}>{event.success ? 'success' : 'failed'}</Badge>
          {event.reason && <span class="muted"> {event.reason}</span>}
        </p>
      </>
    );
  }
  if (entry.kind === 'delivery' && entry.delivery) {
    return (
      <>
        <p class="entry-head">
          {time} <span class="kind">Webhook delivery</span>
        </p>
        <DeliveryView delivery={entry.delivery} onResent={props.reload} />
      </>
    );
  }
  return null;
}

/** Capture, refund or cancel through the public checkout API, as the signed-in credential. */
function ActionForm(props: { kind: Kind; timeline: Timeline; done: (text: string) => void }) {
  const { kind, timeline } = props;
  const { payment } = timeline;
  const action = timeline.actions[kind];
  const max: Amount = action.maxAmount ?? payment.amount;
  const [text, setText] = useState(decimalOf(max));
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(decimalOf(max)), [max.value, max.currency]);
  const id = `amount-${kind}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    let amount: Amount | undefined;
    if (kind !== 'cancel') {
      const parsed = parseDecimal(text, max.currency);
      if ('error' in parsed) return setError(parsed.error);
      if (parsed.value > max.value) return setError(`At most ${formatAmount(max)} can be ${kind === 'capture' ? 'captured' : 'refunded'}.`);
      amount = { currency: max.currency, value: parsed.value };
    }
    setBusy(true);
    try {
      const path = { params: { path: { paymentPspReference: payment.pspReference } } };
      const merchantAccount = payment.merchantAccount;
      const answer =
        kind === 'capture'
          ? await checkoutApi.POST('/payments/{paymentPspReference}/captures', { ...path, body: { merchantAccount, amount: amount! } })
          : kind === 'refund'
            ? await checkoutApi.POST('/payments/{paymentPspReference}/refunds', { ...path, body: { merchantAccount, amount: amount! } })
            : await checkoutApi.POST('/payments/{paymentPspReference}/cancels', { ...path, body: { merchantAccount } });
      if (!answer.data) return setError(errorText(answer.error, answer.response));
      props.done(
        `${VERB[kind]}${amount ? ` of ${formatAmount(amount)}` : ''} ${answer.data.status}: ${answer.data.pspReference}. The outcome arrives as an event.`,
      );
    } catch (cause) {
      setError(failureText(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="action" onSubmit={(event) => void submit(event)} noValidate>
      {kind !== 'cancel' && (
        <div class="field">
          <label for={id}>
            Amount to {kind} ({max.currency}, at most {decimalOf(max)})
          </label>
          <input
            id={id}
            inputMode={exponentOf(max.currency) > 0 ? 'decimal' : 'numeric'}
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
            aria-invalid={error ? true : undefined}
          />
        </div>
      )}
      <button type="submit" disabled={busy}>
        {VERB[kind]}
        {kind === 'cancel' ? ' payment' : ''}
      </button>
      <ErrorMessage text={error} />
    </form>
  );
}

export function PaymentDetail(props: { pspReference: string }) {
  usePageTitle(`Payment ${props.pspReference}`);
  const { announce } = useShell();
  const [timeline, setTimeline] = useState<Timeline | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();

  const load = async () => {
    try {
      const {
        data,
        error: failure,
        response,
      } = await consoleApi.GET('/payments/{pspReference}/timeline', { params: { path: { pspReference: props.pspReference } } });
      if (!data) return setError(response.status === 404 ? `No payment ${props.pspReference} within reach of this credential.` : errorText(failure, response));
      setError(undefined);
      setTimeline(data);
    } catch (cause) {
      setError(failureText(cause));
    }
  };
  useEffect(() => {
    setTimeline(undefined);
    void load();
  }, [props.pspReference]);

  usePaymentFeed((payment) => {
    if (payment.pspReference !== props.pspReference) return;
    announce(`This payment is now ${statusLabel(payment.status)}.`);
    void load();
  });

  const payment = timeline?.payment;
  const kinds = (['capture', 'refund', 'cancel'] as const).filter((kind) => timeline?.actions[kind].allowed);
  return (
    <>
      <p class="breadcrumb">
        <Link to="/payments">Payments</Link>
      </p>
      <h1 tabIndex={-1}>
        Payment <span class="mono">{props.pspReference}</span>
      </h1>
      <ErrorMessage text={error} />
      {!timeline && !error && <p>Loading the payment…</p>}
      {payment && timeline && (
        <>
          <section aria-labelledby="summary">
            <h2 id="summary">Summary</h2>
            <dl class="facts">
              <dt>Amount</dt>
              <dd>{formatAmount(payment.amount)}</dd>
              <dt>Status</dt>
              <dd>
                <Badge tone={toneOfStatus(payment.status)}>{statusLabel(payment.status)}</Badge> <span class="muted">result code {payment.resultCode}</span>
              </dd>
              <dt>Method</dt>
              <dd>{payment.cardSummary ? `${payment.paymentMethod} (${payment.cardSummary})` : payment.paymentMethod}</dd>
              <dt>Merchant account</dt>
              <dd>{payment.merchantAccount}</dd>
              <dt>Merchant reference</dt>
              <dd>{payment.reference}</dd>
              {payment.shopperReference && (
                <>
                  <dt>Shopper reference</dt>
                  <dd>{payment.shopperReference}</dd>
                </>
              )}
              <dt>Captured</dt>
              <dd>{formatAmount({ currency: payment.amount.currency, value: payment.capturedValue })}</dd>
              <dt>Refunded</dt>
              <dd>{formatAmount({ currency: payment.amount.currency, value: payment.refundedValue })}</dd>
              <dt>Charged back</dt>
              <dd>{formatAmount({ currency: payment.amount.currency, value: payment.chargedBackValue })}</dd>
              <dt>Made</dt>
              <dd>{formatTime(payment.createdAt)}</dd>
              <dt>Last change</dt>
              <dd>{formatTime(payment.updatedAt)}</dd>
            </dl>
            <p>
              <Link to={`/requests?pspReference=${encodeURIComponent(payment.pspReference)}`}>Requests concerning this payment</Link>
            </p>
          </section>
          <section aria-labelledby="actions">
            <h2 id="actions">Actions</h2>
            {kinds.length === 0 ? (
              <p>The checkout API allows no capture, refund or cancellation of this payment now.</p>
            ) : (
              <div class="action-list">
                {kinds.map((kind) => (
                  <ActionForm
                    key={kind}
                    kind={kind}
                    timeline={timeline}
                    done={(text) => {
                      setDone(text);
                      void load();
                    }}
                  />
                ))}
              </div>
            )}
            {done && (
              <p class="success" role="status">
                {done}
              </p>
            )}
          </section>
          <section aria-labelledby="timeline">
            <h2 id="timeline">Timeline</h2>
            <button type="button" class="secondary" onClick={() => void load()}>
              Refresh the timeline
            </button>
            <ol class="timeline">
              {timeline.entries.map((entry, i) => (
                <li key={entryKey(entry, i)} class={`entry entry-${entry.kind}`}>
                  <EntryView entry={entry} reload={() => void load()} />
                </li>
              ))}
            </ol>
          </section>
        </>
      )}
    </>
  );
}
