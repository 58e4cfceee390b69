/**
 * The API reference's first view (server/docs/first-view.ts): the HTML a reader sees
 * before Scalar has drawn its page. The browser test checks it against the real specs; this one
 * checks what a small spec cannot hide: references followed, required fields marked, text escaped.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { firstView, loadMarkdown, type ReferenceSpec } from '../../server/docs/first-view.js';

const spec: ReferenceSpec = {
  info: { title: 'Shop API', version: '9', description: 'Amounts are in **minor units**.' },
  tags: [{ name: 'Pay ments', description: 'Take money.' }, { name: 'Unused' }],
  paths: {
    '/payments/{id}': {
      parameters: [],
      post: {
        operationId: 'capture',
        summary: 'Capture <it>',
        tags: ['Pay ments'],
        description: 'Captures. <script>alert(1)</script>',
        parameters: [{ $ref: '#/components/parameters/Id' }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Capture' } } } },
        responses: { '200': { description: 'Captured.' }, '422': { $ref: '#/components/responses/Refused' } },
      },
    },
    '/health': { get: { operationId: 'health', summary: 'Health', responses: { '200': { description: 'Up.' } } } },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The payment.' } },
    schemas: {
      Capture: {
        type: 'object',
        required: ['amount'],
        properties: {
          amount: { $ref: '#/components/schemas/Amount' },
          lines: { type: 'array', items: { $ref: '#/components/schemas/Line' } },
          kind: { type: 'string', enum: ['a', 'b'] },
        },
      },
    },
    responses: { Refused: { description: 'Refused, see `errorCode`.' } },
  },
};

describe('API reference first view', () => {
  let nav = '';
  let main = '';
  // Markdown rendering loads on first use, so the view is rendered once it has loaded.
  beforeAll(async () => {
    await loadMarkdown();
    ({ nav, main } = firstView(spec, 'Base `https://x`'));
  });

  test('When a spec is rendered, then each operation is listed under its first tag, untagged ones under Other, empty tags left out', () => {
    expect(nav).toMatch(/Pay ments[\s\S]*Capture &#60;it&#62;[\s\S]*Other[\s\S]*Health/);
    expect(nav).toContain('href="#op-capture"');
    expect(nav).not.toContain('Unused');
    expect(main).toContain('id="tag-Pay-ments"');
    expect(main).toContain('<span class="m post">POST</span> <code>/payments/{id}</code>');
  });

  test('When an operation refers to components, then parameters, body fields and responses are shown from them', () => {
    expect(main).toContain('<code>id</code> <span class="req">required</span></td><td>path</td><td>string</td><td><p>The payment.</p>');
    expect(main).toContain('<code>amount</code> <span class="req">required</span></td><td>Amount</td>');
    expect(main).toContain('<code>lines</code></td><td>array of Line</td>');
    expect(main).toContain('<code>kind</code></td><td>string (one of 2)</td>');
    expect(main).toContain('<td><code>422</code></td><td><p>Refused, see <code>errorCode</code>.</p>');
  });

  test('When a description holds HTML, then it is shown as text, never run; Markdown is rendered', () => {
    expect(main).not.toContain('<script>');
    expect(main).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(main).toContain('<strong>minor units</strong>');
    expect(main).toContain('<code>https://x</code>');
  });
});
