import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { createApp } from './app.js';
import { compose } from './compose.js';
import { type Config, loadConfig } from './config.js';
import { holdContinue } from './kernel/http/expect-continue.js';
import type { Logger } from './kernel/logger.js';
import { DEMO } from './seed.js';

/** Where the settings come from: the environment (process.env unless given), and values that win over it. */
export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  overrides?: Partial<Config>;
  /** Where log lines go; else stdout (human-readable in a terminal outside production). */
  logDestination?: { write(line: string): void };
}

/** A server that listens: where, with which demo data, and how to stop it. */
export interface StartedServer {
  config: Config;
  /** The address it listens on, e.g. http://127.0.0.1:8080 (the port the OS chose for PORT=0). */
  baseUrl: string;
  port: number;
  server: Server;
  logger: Logger;
  /** The seeded company, its merchant accounts and credentials. */
  demo: typeof DEMO;
  /** API keys the seed generated now (shown once), by credential. */
  generatedKeys: { company?: string; merchant?: string };
  openConnections(): number;
  /**
   * Stops accepting, closes idle keep-alive connections at once, lets in-flight requests finish
   * (each connection closes after its answer), stops the background work and closes the store.
   * Repeated calls share the first one's promise.
   */
  stop(): Promise<void>;
}

/**
 * Starts the server in this process: configuration, store, seed, background work, listen. Used
 * by server/main.ts (`npm start`) and by the sandbox package's command, which both own the
 * process's signals; this module only listens and stops when told.
 */
export async function start(options: StartOptions = {}): Promise<StartedServer> {
  const config = loadConfig(options.env ?? process.env, options.overrides ?? {});
  const composition = await compose(config, options.logDestination ? { logDestination: options.logDestination } : {});
  const { deps, dispatcher, generatedKeys } = composition;
  let stopping: Promise<void> | undefined;
  const app = createApp(deps, { stopping: () => stopping !== undefined });
  await composition.recover();
  if (config.webhookDispatch) dispatcher.start();

  const server = app.listen(config.port, config.host);
  // A port in use (or another listen error) closes what compose opened, and start() rejects.
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => void composition.close().finally(() => reject(error));
    server.once('error', failed);
    server.once('listening', () => {
      server.off('error', failed);
      resolve();
    });
  });
  holdContinue(server);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;

  // Requests that arrive on an open keep-alive connection while stopping are served, and their
  // connection is closed after the answer.
  // (Requests that ask for `100 Continue` come here too: holdContinue passes them on as 'request'.)
  server.on('request', (_req, res: { shouldKeepAlive: boolean }) => {
    if (stopping) res.shouldKeepAlive = false;
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    config,
    baseUrl: `http://${host}:${port}`,
    port,
    server,
    logger: deps.logger,
    demo: DEMO,
    generatedKeys,
    openConnections: () => sockets.size,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // A connection whose request just finished is idle now: close it rather than wait for its keep-alive timeout.
        const sweep = setInterval(() => server.closeIdleConnections(), 20);
        sweep.unref();
        try {
          await Promise.all([closed, dispatcher.stop()]);
        } finally {
          clearInterval(sweep);
        }
        await composition.close();
      })();
      return stopping;
    },
  };
}
