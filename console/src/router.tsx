import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';

/** Where the UI lives; every page is below it and served the same HTML shell. */
export const UI_BASE = '/console';

export interface Location {
  /** The path below /console (`/payments/ABC`), `/` for the start page. */
  path: string;
  query: URLSearchParams;
}

const read = (): Location => {
  const below = window.location.pathname.slice(UI_BASE.length).replace(/\/+$/, '');
  return { path: below || '/', query: new URLSearchParams(window.location.search) };
};

const listeners = new Set<() => void>();

/** Goes to a page of the console without reloading (its address stays linkable). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = to.startsWith(UI_BASE) ? to : `${UI_BASE}${to}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

export function useLocation(): Location {
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const update = () => setLocation(read());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return location;
}

const LocationContext = createContext<Location>({ path: '/', query: new URLSearchParams() });
export const LocationProvider = LocationContext.Provider;
export const useCurrentLocation = () => useContext(LocationContext);

/** A link to a page of the console: a real link (opens in a new tab, copies), followed without a reload. */
export function Link(props: { to: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' | undefined }) {
  const href = `${UI_BASE}${props.to}`;
  return (
    <a
      href={href}
      class={props.class}
      aria-current={props['aria-current']}
      onClick={(event) => {
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {props.children}
    </a>
  );
}

/** A query string of the non-empty values, with its `?` (or nothing). */
export function queryOf(values: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** A text field of a submitted form, trimmed (empty when absent). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}
