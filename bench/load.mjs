#!/usr/bin/env node
// The load generator, in its own process: `node bench/load.mjs '<json>'` runs autocannon with a
// warm-up and then `repeats` measurements, and prints one JSON line with every measurement.
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

const spec = JSON.parse(process.argv[2]);
const pool = spec.pathPoolFile ? readFileSync(spec.pathPoolFile, 'utf8').split('\n').filter(Boolean) : undefined;
let next = 0;

function run(duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration,
        requests: [
          {
            method: spec.method,
            path: spec.path,
            headers: spec.headers,
            ...(spec.body !== undefined && { body: JSON.stringify(spec.body) }),
            setupRequest: (req) => {
              const headers = { ...req.headers };
              if (spec.freshIdempotencyKey) headers['Idempotency-Key'] = randomUUID();
              const path = pool ? spec.path.replace('{ref}', pool[next++ % pool.length]) : req.path;
              return { ...req, headers, path };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const warmup = await run(spec.warmupSeconds);
const measurements = [];
for (let i = 0; i < spec.repeats; i++) {
  const r = await run(spec.seconds);
  measurements.push({
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  });
}
process.stdout.write(`${JSON.stringify({ measurements, used: next, warmupRequests: warmup.requests.total })}\n`);
