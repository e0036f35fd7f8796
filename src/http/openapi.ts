// The served OpenAPI 3.1 document, produced from the same route declarations and zod schemas
// that validate requests, so the document cannot drift from what is enforced.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { VERSION } from '../core/package-info.js';
import { controlErrorSchema, realtimeKitErrorSchema, v1ErrorSchema } from './errors.js';
import { schemaOf, type AnyRoute, type Api, type Deferred } from './route.js';
import { v2ErrorSchema } from './v2/schemas.js';

type Json = Record<string, unknown>;

/**
 * Converting a zod schema is the costly part of building the document (every app builds its
 * own, and tests build hundreds of apps). Schemas are immutable module constants, so the
 * result is memoized per schema: a cache of a pure function, not state.
 */
const converted = lazy(() => ({ input: new WeakMap<z.ZodType, Json>(), output: new WeakMap<z.ZodType, Json>() }));

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const cached = converted()[io].get(schema);
  if (cached) return cached;
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  converted()[io].set(schema, out);
  return out;
}

function errorSchemaFor(api: Api): z.ZodType {
  if (api === 'realtimekit') return realtimeKitErrorSchema();
  // Stryker disable next-line ConditionalExpression,EqualityOperator: controlErrorSchema is v1ErrorSchema, the same object, so either branch documents the same schema.
  return api === 'v2' || api === 'sdk' ? v2ErrorSchema() : api === 'v1' ? v1ErrorSchema() : controlErrorSchema();
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request (validation message names the field)',
  401: 'Missing or invalid credentials',
  403: 'Valid credentials that may not do this (RealtimeKit: an account the API token does not open)',
  404: 'Unknown id',
  409: 'The current state forbids this',
  413: 'Body larger than 1 MiB',
  415: 'Body that is not application/json',
  429: 'Rate limit reached (only with --rate-limit); retry-after says when to come back',
};

function parameters(deferred: Deferred<z.ZodType> | undefined, where: 'path' | 'query'): Json[] {
  const schema = deferred && schemaOf(deferred);
  if (!schema || !(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || !s.safeParse(undefined).success,
    schema: jsonSchema(s, 'input'),
  }));
}

function security(r: AnyRoute): Json[] | undefined {
  switch (r.auth) {
    case 'none':
      return [];
    case 'basic':
      return [{ basicAuth: [] }];
    case 'basic-or-participant':
      return [{ basicAuth: [] }, { participantToken: [] }];
    case 'participant':
      return [{ participantToken: [] }];
    case 'v1-bearer':
      return [{ apiKey: [] }];
    case 'account-token':
      return [{ apiToken: [] }];
    case 'partner-bearer':
      return [{ partnerToken: [] }];
  }
}

function operation(r: AnyRoute): Json {
  const responses: Json = {};
  const errorSchema = jsonSchema(errorSchemaFor(r.api), 'output');
  const statuses = new Set<number>(Object.keys(r.responses).map(Number));
  if (r.params || r.query || r.body) statuses.add(400);
  if (r.auth !== 'none') statuses.add(401);
  if (r.auth === 'account-token') statuses.add(403);
  if (r.path.includes('{')) statuses.add(404);
  if (r.body) {
    statuses.add(413);
    statuses.add(415);
  }
  const emulated = r.api === 'v1' || r.api === 'v2' || r.api === 'realtimekit';
  if (emulated) statuses.add(429);
  // Stryker disable next-line MethodExpression,ArithmeticOperator: JavaScript lists integer keys in ascending order anyway, so the document is the same.
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const spec = r.responses[status];
    if (status >= 400) {
      // Stryker disable next-line StringLiteral: every error status the builder adds itself has its text in ERROR_TEXT, so the fallback is never used.
      responses[String(status)] = { description: spec?.description ?? ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: errorSchema } } };
    } else if (spec?.schema) {
      responses[String(status)] = {
        description: spec.description,
        content: {
          [spec.contentType ?? 'application/json']: { schema: jsonSchema(schemaOf(spec.schema), 'output') },
          ...Object.fromEntries((spec.alsoAs ?? []).map((type) => [type, {}])),
        },
      };
    } else {
      // Stryker disable next-line StringLiteral: a success status is always one the route declares, with its required description, so the fallback is never used.
      const types = [...(spec?.contentType ? [spec.contentType] : []), ...(spec?.alsoAs ?? [])];
      responses[String(status)] = {
        description: spec?.description ?? '',
        ...(types.length > 0 ? { content: Object.fromEntries(types.map((t) => [t, {}])) } : {}),
      };
    }
  }
  // Fault rules (POST /_emulator/faults) can make any emulated route answer any error status.
  if (emulated || r.api === 'media') {
    responses.default = { description: 'Any other error, e.g. injected by a fault rule', content: { 'application/json': { schema: errorSchema } } };
  }
  const op: Json = {
    operationId: `${r.method}${r.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: r.summary,
    tags: [r.tag],
    security: security(r),
    parameters: [...parameters(r.params, 'path'), ...parameters(r.query, 'query')],
    responses,
  };
  if (r.description) op.description = r.description;
  if (r.body) {
    op.requestBody = { required: false, content: { 'application/json': { schema: jsonSchema(schemaOf(r.body), 'input') } } };
  }
  return op;
}

export function buildOpenApi(routes: AnyRoute[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    // The web SDK's calls on its own hosts are its internals, not an API for clients: a path
    // cannot say which host serves it, and `/` of one would read as the emulator's own.
    if (r.host !== undefined) continue;
    paths[r.path] ??= {};
    paths[r.path]![r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Meetings emulator',
      version: VERSION,
      description:
        'Local emulator of the meetings (v2) and product registry (v1) APIs, with its control API under /_emulator. Every v2 operation also answers under the RealtimeKit prefix /client/v4/accounts/{account_id}/realtime/kit/{app_id} (tags starting with "RealtimeKit").',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'organizationId:apiKey' },
        participantToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A participant token (recording routes only)' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'The organization API key (v1)' },
        apiToken: { type: 'http', scheme: 'bearer', description: "An account's API token (RealtimeKit API, /client/v4/accounts/…)" },
        partnerToken: { type: 'http', scheme: 'bearer', description: 'The partner token (--partner-token), over every organization (/v2/orgs)' },
      },
    },
  };
}
