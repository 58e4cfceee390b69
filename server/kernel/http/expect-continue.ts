import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Server as TlsServer } from 'node:https';

/** Requests whose `100 Continue` the server holds back until the app lets their body come. */
const held = new WeakSet<IncomingMessage>();

/**
 * A client that sends `Expect: 100-continue` (curl does above 1 MiB, and so do many HTTP
 * libraries for uploads) waits for `100 Continue` before it sends its body. Node sends it at once
 * unless the server listens for `checkContinue`; this listener holds it back, so that a request
 * refused by authentication or authorization is answered without it, at once (refusal.ts waits
 * for no body of it). Such a client then never sends the refused body, and nothing of it reaches
 * the server or the wire. Node closes the connection after such an answer (the client may still
 * send the body), which costs the client a new connection, not a reset. The request then goes on as any other, to the server's
 * 'request' listeners (the app, and whatever else listens there).
 */
export function holdContinue(server: Server | TlsServer): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    held.add(req);
    server.emit('request', req, res);
  });
}

/** Whether the client still waits for `100 Continue` before it sends the body (none was sent): a refusal then waits for no body. */
export function waitsForContinue(req: IncomingMessage): boolean {
  return held.has(req);
}

/** The request may send its body now: sends its held `100 Continue`, once. Any other request is left as it is. */
export function letBodyCome(req: IncomingMessage, res: ServerResponse): void {
  if (held.delete(req)) res.writeContinue();
}
