// House lint rules that Redocly's built-in and configurable rules cannot express.
// Loaded by redocly.yaml; used as `house/<rule>`.

/** The example keys of a content map, across its media types. */
const exampleKeys = (mediaTypes, ctx) => {
  const media = mediaTypes ? ctx.resolve(mediaTypes).node : undefined;
  return Object.values(media ?? {}).flatMap((m) => Object.keys(ctx.resolve(m).node?.examples ?? {}));
};

/** Every request example has a response example of the same key, and one of them is a success. */
function PairedExamples() {
  return {
    Operation: {
      enter(operation, ctx) {
        const responses = ctx.resolve(operation.responses ?? {}).node ?? {};
        const byStatus = Object.entries(responses).map(([status, response]) => ({
          status,
          keys: exampleKeys(ctx.resolve(response).node?.content, ctx),
        }));
        const successKeys = new Set(byStatus.filter((r) => /^2/.test(r.status)).flatMap((r) => r.keys));
        // A success without a body (204) has nothing to exemplify.
        const bodilessSuccess = Object.entries(responses).some(([status, r]) => /^2/.test(status) && !ctx.resolve(r).node?.content);
        const anyKeys = new Set(byStatus.flatMap((r) => r.keys));
        const body = operation.requestBody && ctx.resolve(operation.requestBody).node;
        if (!body) {
          if (successKeys.size === 0 && !bodilessSuccess) {
            ctx.report({ message: 'An operation without a request body needs a success response example.', location: ctx.location.child('responses') });
          }
          return;
        }
        const requestKeys = exampleKeys(body.content, ctx);
        if (requestKeys.length === 0) {
          ctx.report({ message: 'The request body needs at least one example.', location: ctx.location.child('requestBody') });
          return;
        }
        // A success without a body (204) has no example to pair the request examples with.
        if (bodilessSuccess) return;
        for (const key of requestKeys.filter((k) => !anyKeys.has(k))) {
          ctx.report({ message: `Request example "${key}" has no response example of the same key.`, location: ctx.location.child('requestBody') });
        }
        if (!requestKeys.some((k) => successKeys.has(k))) {
          ctx.report({ message: 'No request example is paired with a success response example.', location: ctx.location.child('responses') });
        }
      },
    },
  };
}

/** operationIds are camelCase: they name handlers, test files and example folders. */
function OperationIdCamelCase() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (operation.operationId && !/^[a-z][a-zA-Z0-9]*$/.test(operation.operationId)) {
          ctx.report({ message: `operationId "${operation.operationId}" is not camelCase.`, location: ctx.location.child('operationId') });
        }
      },
    },
  };
}

/** Every integer and number declares a format, so generated clients pick the right width. */
function NumbersHaveFormat() {
  return {
    Schema: {
      enter(schema, ctx) {
        const types = Array.isArray(schema.type) ? schema.type : [schema.type];
        if ((types.includes('integer') || types.includes('number')) && !schema.format) {
          ctx.report({ message: 'A number or integer needs a format.', location: ctx.location.child('type') });
        }
      },
    },
  };
}

export default function houseRules() {
  return {
    id: 'house',
    rules: {
      oas3: {
        'paired-examples': PairedExamples,
        'operation-id-camel-case': OperationIdCamelCase,
        'numbers-have-format': NumbersHaveFormat,
      },
    },
  };
}
