import { createContext } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import type { Payment, Session } from './api.js';

export type Listener = (payment: Payment) => void;

export interface Shell {
  session: Session;
  /** Says something to screen readers, politely (the shared aria-live region). */
  announce: (text: string) => void;
  /** Calls `listener` with every payment the live feed reports created or changed; returns the unsubscribe. */
  onPayment: (listener: Listener) => () => void;
}

export const ShellContext = createContext<Shell | undefined>(undefined);

export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell outside the signed-in layout');
  return shell;
}

/** Follows `handler` with every payment of the live feed while the component is shown. */
export function usePaymentFeed(handler: Listener): void {
  const { onPayment } = useShell();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => onPayment((payment) => latest.current(payment)), [onPayment]);
}

/** Names the browser tab after the page. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Sandbox console`;
  }, [title]);
}
