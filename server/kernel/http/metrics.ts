import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { validatorFastPath } from './validator.js';

export interface MetricsSources {
  /** Deliveries waiting in the outbox (read at each scrape). */
  pendingDeliveries?: () => Promise<number>;
}

/**
 * The Prometheus metrics of one app (prom-client, a registry of its own so that several apps in
 * one process, as in the tests, do not share counters): requests by operation and status, their
 * latency, idempotent replays, webhook delivery attempts and failures, and the outbox backlog.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by operationId (none: no operation matched) and status',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of the response, by operationId',
    labelNames: ['operation'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly replays = new Counter({
    name: 'idempotent_replays_total',
    help: 'Requests answered with the stored response of an earlier request with the same Idempotency-Key, by operationId',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts, by outcome (accepted, rejected, error)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly deliveryFailures = new Counter({
    name: 'webhook_delivery_failures_total',
    help: 'Webhook delivery attempts that were not accepted (refused or failed)',
    registers: [this.registry],
  });

  constructor(sources: MetricsSources = {}) {
    const { pendingDeliveries } = sources;
    new Gauge({
      name: 'webhook_outbox_pending_deliveries',
      help: 'Webhook deliveries waiting to be sent or retried (the outbox backlog)',
      registers: [this.registry],
      async collect() {
        if (pendingDeliveries) this.set(await pendingDeliveries());
      },
    });
    // validator.ts replaces internals of express-openapi-validator; where a new version of it (or of
    // the bundler) moves them, the server silently takes the library's slower paths, answering the
    // same. This makes that visible where an operator looks: 0 for a part that is not in place.
    new Gauge({
      name: 'openapi_validator_fast_path',
      help: "Whether each internal of express-openapi-validator (request and response validation) that the server replaces is in place (1) or the library's own, slower path runs (0), by part",
      labelNames: ['part'] as const,
      registers: [this.registry],
      collect() {
        for (const [part, inPlace] of Object.entries(validatorFastPath)) this.set({ part }, inPlace ? 1 : 0);
      },
    });
  }

  /** Counts every answered request; the operation and a replay are read from res.locals when it finishes. */
  middleware(): RequestHandler {
    return (_req, res, next) => {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const operation = (res.locals.operationId as string | undefined) ?? 'none';
        this.counterOf(operation, res.statusCode).inc();
        this.latencyOf(operation).observe(Number(process.hrtime.bigint() - started) / 1e9);
        if (res.locals.idempotentReplay === true) this.replays.inc({ operation });
      });
      next();
    };
  }

  // The labelled children, looked up once per operation (and status) rather than on every request.
  private readonly counters = new Map<string, ReturnType<Counter<'operation' | 'status'>['labels']>>();
  private readonly latencies = new Map<string, ReturnType<Histogram<'operation'>['labels']>>();

  private counterOf(operation: string, status: number) {
    const key = `${operation} ${status}`;
    let child = this.counters.get(key);
    if (!child) this.counters.set(key, (child = this.requests.labels(operation, String(status))));
    return child;
  }

  private latencyOf(operation: string) {
    let child = this.latencies.get(operation);
    if (!child) this.latencies.set(operation, (child = this.latency.labels(operation)));
    return child;
  }

  /** The dispatcher reports each delivery attempt here. */
  deliveryAttempted(outcome: 'accepted' | 'rejected' | 'error'): void {
    this.deliveries.inc({ outcome });
    if (outcome !== 'accepted') this.deliveryFailures.inc();
  }

  /** GET /metrics: the Prometheus text format. */
  endpoint(): RequestHandler {
    return async (_req, res) => {
      const body = await this.registry.metrics();
      res.set('Content-Type', this.registry.contentType).send(body);
    };
  }
}
