import { useEffect, useState } from 'preact/hooks';
import { checkoutApi, errorText, failureText, type SandboxClock } from '../api.js';
import { usePageTitle, useShell } from '../shell.js';
import { ErrorMessage } from '../components.js';
import { formatDuration, formatTime } from '../format.js';
import { formText } from '../router.js';

const UNITS = { minutes: 60, hours: 3600, days: 86_400 } as const;

export function Clock() {
  usePageTitle('Sandbox clock');
  const { session, announce } = useShell();
  const [clock, setClock] = useState<SandboxClock | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
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
      const { data, error: failure, response } = await checkoutApi.POST('/sandbox/clock/advance', { body: { seconds } });
      if (!data) return setFormError(errorText(failure, response));
      setClock(data);
      const text = `The clock moved ${formatDuration(seconds)} forward: it is now ${formatTime(data.now)}.`;
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
            <select id="c-unit" name="unit" defaultValue="days">
              <option value="minutes">minutes</option>
              <option value="hours">hours</option>
              <option value="days">days</option>
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
      <p class="muted">
        The API answers the new time only, not what became due: due captures, expiries and webhook retries run as the clock passes them and show on the Payments
        and Webhooks pages.
      </p>
    </>
  );
}
