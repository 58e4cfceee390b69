#!/usr/bin/env node
// Reference points for the benchmark, each answering fixed JSON on the scenarios' paths:
//   node bench/reference-servers.mjs <http|express|validator> <port>
// `validator` is Express 5 with express-openapi-validator on the bundled specs, validating
// requests and responses: the ceiling for this server's design.
import express from 'express';
import OpenApiValidator from 'express-openapi-validator';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixed } from './reference-answers.mjs';

const [kind, port] = process.argv.slice(2);
// Ended with SIGINT by bench/ab.mjs: exiting (rather than being killed) lets --cpu-prof write its profile.
process.on('SIGINT', () => process.exit(0));
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (kind === 'http') {
  createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const [status, body] = fixed(req.method, req.url);
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    });
  }).listen(Number(port), '127.0.0.1');
} else {
  const app = express();
  app.use(express.json());
  if (kind === 'validator') {
    // Configured as the server configures it: one validator per area, each request meeting only its own.
    const routers = {};
    for (const area of ['checkout', 'management']) {
      const spec = JSON.parse(readFileSync(join(root, 'generated', `${area}.json`), 'utf8'));
      routers[area] = express.Router().use(
        OpenApiValidator.middleware({
          apiSpec: spec,
          validateApiSpec: false,
          validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
          validateResponses: { removeAdditional: false },
          validateSecurity: false,
          ignoreUndocumented: false,
          $refParser: { mode: 'dereference' },
        }),
      );
    }
    app.use((req, res, next) => (req.path.startsWith('/management/') ? routers.management : routers.checkout)(req, res, next));
  }
  app.use((req, res) => {
    const [status, body] = fixed(req.method, req.path);
    res.status(status).json(body);
  });
  app.use((err, _req, res, _next) => res.status(err.status ?? 500).json({ status: err.status ?? 500, message: err.message }));
  app.listen(Number(port), '127.0.0.1');
}
