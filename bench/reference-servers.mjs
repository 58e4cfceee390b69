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
import { parse } from 'yaml';

const [kind, port] = process.argv.slice(2);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAYMENT = { pspReference: '993617894906488A', resultCode: 'Authorised', merchantReference: 'bench', amount: { currency: 'EUR', value: 1000 }, paymentMethod: { brand: 'visa', type: 'scheme' } };
const CAPTURE = { merchantAccount: 'DemoMerchantECOM', paymentPspReference: '993617894906488A', pspReference: '993617894906501D', status: 'received', amount: { currency: 'EUR', value: 1000 } };
const APPS = { data: [{ id: 'ANDA422LZ223223K5F694GCCF732K8', status: 'ready', packageName: 'com.example.bench', versionCode: 1, versionName: '1.0.0' }] };
const fixed = (method, path) => (path.endsWith('/captures') ? [201, CAPTURE] : method === 'GET' ? [200, APPS] : [200, PAYMENT]);

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
    for (const area of ['checkout', 'management']) {
      const spec = parse(readFileSync(join(root, 'generated', `${area}.yaml`), 'utf8'));
      app.use(OpenApiValidator.middleware({ apiSpec: spec, validateApiSpec: false, validateRequests: true, validateResponses: true, validateSecurity: false, $refParser: { mode: 'dereference' } }));
    }
  }
  app.use((req, res) => {
    const [status, body] = fixed(req.method, req.path);
    res.status(status).json(body);
  });
  app.use((err, _req, res, _next) => res.status(err.status ?? 500).json({ status: err.status ?? 500, message: err.message }));
  app.listen(Number(port), '127.0.0.1');
}
