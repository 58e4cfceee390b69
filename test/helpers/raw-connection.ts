import { connect, type Socket } from 'node:net';

/** One connection's raw side, as a test drives it. */
export interface RawConnection {
  socket: Socket;
  /** The answers received so far, each from its status code on (interim `100 Continue` included). */
  answers(): string[];
  /** Whether the server has ended the connection. */
  closed(): boolean;
  /** Waits until what was received matches `pattern`, the connection's end or 5 s; returns what was received. */
  received(pattern: RegExp): Promise<string>;
  /** Waits until `count` whole answers (each ends with its JSON body), the connection's end or 5 s. */
  answered(count: number): Promise<void>;
  /** Waits until the server ends the connection, or `ms`. */
  ended(ms: number): Promise<void>;
}

/**
 * One connection, written to by hand: the request's headers go first, and the test decides when
 * (and whether) its body follows, or what arrives on the connection next.
 */
export function rawConnection(url: URL): RawConnection {
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('end', () => (closed = true));
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  const answers = () => received.split('HTTP/1.1 ').slice(1);
  const until = async (done: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!done() && !closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  };
  return {
    socket,
    answers,
    closed: () => closed,
    async received(pattern) {
      await until(() => pattern.test(received), 5000);
      return received;
    },
    async answered(count) {
      await until(() => answers().length === count && /\}$/.test(received), 5000);
      // The end of a closing connection follows its answer; let it arrive.
      if (!closed) await new Promise((r) => setTimeout(r, 50));
    },
    async ended(ms) {
      await until(() => false, ms);
    },
  };
}

/** A request's head: the request line, Host and `headers`, and the blank line. */
export const requestHead = (url: URL, headers: Record<string, string | number>, method = 'POST'): string =>
  `${method} ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
