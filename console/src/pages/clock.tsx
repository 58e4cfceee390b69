import { useEffect, useState } from 'preact/hooks';
import { checkoutApi, type ClockAdvance, consoleApi, type DueItem, errorText, failureText, type SandboxClock } from '../api.js';
import { usePageTitle, useShell } from '../shell.js';
import { ErrorMessage, TableRegion } from '../components.js';
import { formatDuration, formatTime } from '../format.js';
import { formText, Link } from '../router.js';

const UNITS = { minutes: 60, hours: 3600, days: 86_400 } as const;

const KIND: Record<DueItem['kind'], string> = {
  delayedCapture: 'Delayed capture',
  paymentSettlement: "Pending payment's outcome",
  webhookRetry: 'Webhook retry',
  orderExpiry: 'Order expiry',
  paymentLinkExpiry: 'Payment link expiry',
  sessionExpiry: 'Checkout session expiry',
};

/** What a due item concerns, linked to its page in the console where there is one. */
function Concerns(props: { item: DueItem }) {
  const { item } = props;
  return (
    <>
      {item.pspReference && <Link to={`/payments/${encodeURIComponent(item.pspReference)}`}>{item.pspReference}</Link>}
      {item.id && <span class="mono"> {item.id}</span>}
      {item.webhookId && (
        <span>
          {' '}
          event {item.eventId} to webhook <span class="mono">{item.webhookId}</span>
        </span>
      )}
    </>
  );
}

function DueList(props: { advance: ClockAdvance }) {
  const { due } = props.advance;
  if (due.length === 0)
    return (
      <p>
        Nothing fell due between {formatTime(props.advance.before)} and {formatTime(props.advance.now)}.
      </p>
    );
  return (
    <TableRegion caption={`What fell due (${due.length})`}>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Concerns</th>
          <th scope="col">Due at</th>
          <th scope="col">Merchant account</th>
        </tr>
      </thead>
      <tbody>
        {due.map((item, i) => (
          <tr key={i}>
            <td>{KIND[item.kind] ?? item.kind}</td>
            <td>
              <Concerns item={item} />
            </td>
            <td>
              <time dateTime={item.dueAt}>{formatTime(item.dueAt)}</time>
            </td>
            <td>{item.merchantAccount ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </TableRegion>
  );
}

export function Clock() {
  usePageTitle('Sandbox clock');
  const { session, announce } = useShell();
  const [clock, setClock] = useState<SandboxClock | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [advanced, setAdvanced] = useState<ClockAdvance | undefined>();
  const [busy, setBusy] = useState(false);

  const load = async () => {
    try {
      const { data, error: failure, response } = await checkoutApi.GET('/sandbox/clock');
      if (!data) return setError(errorText(failure, response));
      setError(undefined);
      setClock(data);
    } catch (cause) {
      setError(failureText(cause));
    }
  };
  useEffect(() => void load(), []);

  const advance = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const count = Number(formText(form, 'count'));
    const unit = (formText(form, 'unit') || 'days') as keyof typeof UNITS;
    if (!Number.isInteger(count) || count < 1) return setFormError('Enter a whole number above zero.');
    setFormError(undefined);
    setBusy(true);
    try {
      const seconds = count * UNITS[unit];
      const { data, error: failure, response } = await consoleApi.POST('/clock/advance', { body: { seconds } });
      if (!data) return setFormError(errorText(failure, response));
      setClock({ companyId: data.companyId, now: data.now, offsetSeconds: data.offsetSeconds });
      setAdvanced(data);
      const fell = data.due.length === 0 ? 'nothing fell due' : `${data.due.length} thing${data.due.length === 1 ? '' : 's'} fell due`;
      const text = `The clock moved ${formatDuration(seconds)} forward: it is now ${formatTime(data.now)}; ${fell}.`;
      setDone(text);
      announce(text);
    } catch (cause) {
      setFormError(failureText(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Sandbox clock</h1>
      <p class="lead">
        Every time-based rule of company {session.companyId} (expiries, delayed captures, webhook retries) reads this clock. It only moves forward, and other
        companies keep theirs.
      </p>
      <ErrorMessage text={error} />
      {clock && (
        <dl class="facts">
          <dt>Now</dt>
          <dd>
            <time dateTime={clock.now}>{formatTime(clock.now)}</time>
          </dd>
          <dt>Ahead of real time by</dt>
          <dd>{clock.offsetSeconds > 0 ? formatDuration(clock.offsetSeconds) : 'nothing'}</dd>
        </dl>
      )}
      <button type="button" class="secondary" onClick={() => void load()}>
        Read the clock again
      </button>
      <h2>Advance</h2>
      {session.level !== 'company' ? (
        <p class="notice">
          Advancing the clock needs a company-level credential: it moves time for every merchant account of the company. You are signed in with a merchant-level
          one, so the API would refuse it (403).
        </p>
      ) : (
        <form class="filters" onSubmit={(event) => void advance(event)} noValidate>
          <div class="field">
            <label for="c-count">Move forward by</label>
            <input id="c-count" name="count" inputMode="numeric" defaultValue="1" />
          </div>
          <div class="field">
            <label for="c-unit">Unit</label>
            {/* Preact sets no `defaultValue` on a select: the option says it is selected. */}
            <select id="c-unit" name="unit">
              <option value="minutes">minutes</option>
              <option value="hours">hours</option>
              <option value="days" selected>
                days
              </option>
            </select>
          </div>
          <div class="actions">
            <button type="submit" disabled={busy}>
              Advance the clock
            </button>
          </div>
          <ErrorMessage text={formError} />
        </form>
      )}
      {done && (
        <p class="success" role="status">
          {done}
        </p>
      )}
      {advanced && <DueList advance={advanced} />}
      <p class="muted">
        What fell due is applied by the server within about a second: captures, outcomes and webhook retries then show on the Payments and Webhooks pages.
      </p>
    </>
  );
}
