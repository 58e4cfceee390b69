import { useEffect, useRef, useState } from 'preact/hooks';
import { consoleApi, errorText, failureText, type Session } from '../api.js';
import { ErrorMessage } from '../components.js';

/**
 * The API key is sent once, to open a session; it is kept in no storage, and the field is emptied
 * whatever the answer.
 */
export function SignIn(props: { notice: string | undefined; onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    document.title = 'Sign in · Sandbox console';
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const input = field.current!;
    const apiKey = input.value.trim();
    if (!apiKey) {
      setError('Enter an API key.');
      input.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const { data, error: failure, response } = await consoleApi.POST('/session', { body: { apiKey } });
      input.value = '';
      if (data) return props.onSignedIn(data);
      setError(
        response.status === 401
          ? 'This API key was not accepted: it is unknown, revoked or expired, or its credential is inactive.'
          : errorText(failure, response),
      );
      input.focus();
    } catch (cause) {
      setError(failureText(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">Sandbox console</p>
      </header>
      <main id="main" tabIndex={-1} class="narrow">
        <h1>Sign in</h1>
        {props.notice && <p class="notice">{props.notice}</p>}
        <p>
          Sign in with an API key of this sandbox: the console then shows and does what that credential may do through the API. The demo keys are printed when
          the server starts.
        </p>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <div class="field">
            <label for="api-key">API key</label>
            <input id="api-key" ref={field} type="password" name="apiKey" autocomplete="off" spellcheck={false} required aria-describedby="api-key-hint" />
            <p id="api-key-hint" class="hint">
              Sent once to open a session of 8 hours; the browser keeps only the session cookie.
            </p>
          </div>
          <ErrorMessage text={error} />
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </main>
    </>
  );
}
