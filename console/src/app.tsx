import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { BASE, consoleApi, errorText, failureText, type Payment, type Session, setSessionToken, whenSignedOut } from './api.js';
import { type Listener, ShellContext, usePageTitle } from './shell.js';
import { Link, LocationProvider, navigate, useLocation, type Location } from './router.js';
import { SignIn } from './pages/sign-in.js';
import { Payments } from './pages/payments.js';
import { PaymentDetail } from './pages/payment.js';
import { RequestLog } from './pages/requests.js';
import { RequestDetail } from './pages/request.js';
import { Webhooks } from './pages/webhooks.js';
import { Clock } from './pages/clock.js';

const NAV = [
  { to: '/payments', label: 'Payments' },
  { to: '/requests', label: 'Request log' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/clock', label: 'Sandbox clock' },
];

function page(location: Location) {
  const [, first, second] = location.path.split('/');
  if (first === 'payments' && second) return <PaymentDetail pspReference={decodeURIComponent(second)} />;
  if (first === 'payments') return <Payments />;
  if (first === 'requests' && second) return <RequestDetail id={decodeURIComponent(second)} />;
  if (first === 'requests') return <RequestLog />;
  if (first === 'webhooks') return <Webhooks />;
  if (first === 'clock') return <Clock />;
  return <NotFound />;
}

function NotFound() {
  usePageTitle('Page not found');
  return (
    <>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        The console has no page here. Go to the <Link to="/payments">payments</Link>.
      </p>
    </>
  );
}

function Layout(props: { session: Session; location: Location; signOut: () => Promise<void>; focusHeading: boolean; children: ComponentChildren }) {
  const { session, location } = props;
  const [message, setMessage] = useState('');
  const listeners = useRef(new Set<Listener>());
  const onPayment = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);
  const announce = useCallback((text: string) => {
    // The same text twice in a row is still read out: the region changes in between.
    setMessage('');
    window.setTimeout(() => setMessage(text), 50);
  }, []);

  // One live feed for every page, opened for the signed-in session and closed on sign-out.
  useEffect(() => {
    const source = new EventSource(`${BASE.console}/events/stream`);
    source.addEventListener('payment', (event: MessageEvent<string>) => {
      const payment = JSON.parse(event.data) as Payment;
      for (const listener of listeners.current) listener(payment);
    });
    // The browser reconnects by itself, except when the server refused the stream: then the
    // session may have ended elsewhere, and reading it says so (a 401 leads to the sign-in page).
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) void consoleApi.GET('/session');
    });
    return () => source.close();
  }, [session.csrfToken]);

  // After a navigation or the sign-in, focus goes to the new page's heading, as a page load would
  // put it at the top; on a page load itself it stays where the browser put it.
  const first = useRef(true);
  const main = useRef<HTMLElement>(null);
  // Before the new page is painted, so that nothing typed meanwhile lands on the old focus.
  useLayoutEffect(() => {
    if (first.current && !props.focusHeading) {
      first.current = false;
      return;
    }
    first.current = false;
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [location.path]);

  const section = `/${location.path.split('/')[1] ?? ''}`;
  return (
    <ShellContext.Provider value={{ session, announce, onPayment }}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">Sandbox console</p>
        <nav aria-label="Console">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <Link to={item.to} aria-current={section === item.to ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p class="who">
          Signed in as <strong>{session.username}</strong> <span class="muted">({session.level} level)</span>
        </p>
        <button type="button" class="secondary" onClick={() => void props.signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1} ref={main}>
        {props.children}
      </main>
      <div class="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="announcer">
        {message}
      </div>
    </ShellContext.Provider>
  );
}

export function App() {
  const location = useLocation();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>();
  /** Whether the session was opened by the sign-in form now (not found on load). */
  const [justSignedIn, setJustSignedIn] = useState(false);

  const signedIn = useCallback((next: Session) => {
    setSessionToken(next.csrfToken);
    setSession(next);
    setNotice(undefined);
  }, []);
  const signedOut = useCallback((why?: string) => {
    setSessionToken(undefined);
    setSession(null);
    setNotice(why);
  }, []);

  useEffect(() => {
    whenSignedOut(() => signedOut('Your session has ended. Sign in again.'));
    consoleApi
      .GET('/session')
      .then(({ data }) => (data ? signedIn(data) : signedOut()))
      .catch((cause: unknown) => signedOut(failureText(cause)));
  }, [signedIn, signedOut]);

  // The start page and the sign-in page lead to the payments once signed in.
  useEffect(() => {
    if (session && (location.path === '/' || location.path === '/signin')) navigate('/payments', { replace: true });
  }, [session, location.path]);

  const signOut = async () => {
    const { error, response } = await consoleApi.DELETE('/session');
    if (error && response.status !== 401) {
      setNotice(errorText(error, response));
      return;
    }
    signedOut('You are signed out.');
    navigate('/signin');
  };

  if (session === undefined) return <p class="loading">Loading the console…</p>;
  if (session === null)
    return (
      <SignIn
        notice={notice}
        onSignedIn={(next) => {
          setJustSignedIn(true);
          signedIn(next);
        }}
      />
    );
  return (
    <LocationProvider value={location}>
      <Layout session={session} location={location} signOut={signOut} focusHeading={justSignedIn}>
        {notice && (
          <p class="notice" role="alert">
            {notice}
          </p>
        )}
        {page(location)}
      </Layout>
    </LocationProvider>
  );
}
