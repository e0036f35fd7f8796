// The served OpenAPI document, built from route declarations: what a client generator or a
// reader of /_emulator/openapi.json relies on (operation ids, parameters, which statuses and
// error shapes each operation documents, security), pinned here as literals for routes of each
// kind, so that a change of the builder alone cannot move the expectation.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VERSION } from '../../src/core/package-info.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import type { AnyRoute } from '../../src/http/route.js';

// The document is read as a client reads it: untyped JSON, walked by the keys each test names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const route = (spec: Partial<AnyRoute> & Pick<AnyRoute, 'method' | 'path' | 'api' | 'auth'>): AnyRoute => ({
  tag: 'Widgets',
  summary: 'A widget call',
  responses: {},
  handler: () => undefined,
  ...spec,
});

const widget = z.object({ id: z.string(), colour: z.string().default('blue') });

/** The operation `method path` of a document built from these routes alone. */
function operationOf(routes: AnyRoute[], method: string, path: string): Json {
  const doc: Json = buildOpenApi(routes, 'http://emulator.test');
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method} ${path} is not in the document`);
  return op as Json;
}

const ERRORS = {
  400: 'Invalid request (validation message names the field)',
  401: 'Missing or invalid credentials',
  403: 'Valid credentials that may not do this (RealtimeKit: an account the API token does not open)',
  404: 'Unknown id',
  413: 'Body larger than 1 MiB',
  415: 'Body that is not application/json',
  429: 'Rate limit reached (only with --rate-limit); retry-after says when to come back',
};
const FAULTS = 'Any other error, e.g. injected by a fault rule';
const errorFields = (response: Json) => Object.keys(response.content['application/json'].schema.properties);

describe('the served OpenAPI document', () => {
  it('opens with the version of package.json, the server it was built for and the five security schemes', () => {
    const doc: Json = buildOpenApi([], 'http://emulator.test:4000');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({
      title: 'Meetings emulator',
      version: VERSION,
      description:
        'Local emulator of the meetings (v2) and product registry (v1) APIs, with its control API under /_emulator. Every v2 operation also answers under the RealtimeKit prefix /client/v4/accounts/{account_id}/realtime/kit/{app_id} (tags starting with "RealtimeKit").',
    });
    expect(doc.servers).toEqual([{ url: 'http://emulator.test:4000' }]);
    expect(doc.paths).toEqual({});
    expect(doc.components).toEqual({
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'organizationId:apiKey' },
        participantToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A participant token (recording routes only)' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'The organization API key (v1)' },
        apiToken: { type: 'http', scheme: 'bearer', description: "An account's API token (RealtimeKit API, /client/v4/accounts/…)" },
        partnerToken: { type: 'http', scheme: 'bearer', description: 'The partner token (--partner-token), over every organization (/v2/orgs)' },
      },
    });
  });

  it('documents a v2 read by id: its id, parameters in order, the statuses it can answer with their texts, and Basic auth', () => {
    const get = route({
      method: 'get',
      path: '/v2/widgets/{widget_id}',
      api: 'v2',
      auth: 'basic',
      summary: 'Fetch a widget',
      description: 'Widgets are blue.',
      params: z.object({ widget_id: z.string() }),
      query: z.object({ q: z.string(), limit: z.coerce.number().optional() }),
      responses: { 200: { description: 'The widget', schema: widget } },
    });
    const op = operationOf([get], 'get', '/v2/widgets/{widget_id}');
    expect(op.operationId).toBe('getV2WidgetsWidgetId');
    expect(op.summary).toBe('Fetch a widget');
    expect(op.description).toBe('Widgets are blue.');
    expect(op.tags).toEqual(['Widgets']);
    expect(op.security).toEqual([{ basicAuth: [] }]);
    expect(op.parameters).toEqual([
      { name: 'widget_id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'number' } },
    ]);
    expect(op).not.toHaveProperty('requestBody');
    expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '404', '429', 'default']);
    // The answer is documented as it is sent: a field with a default is always there.
    expect(op.responses['200']).toEqual({
      description: 'The widget',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { id: { type: 'string' }, colour: { type: 'string', default: 'blue' } },
            required: ['id', 'colour'],
            additionalProperties: false,
          },
        },
      },
    });
    for (const status of [400, 401, 404, 429] as const) {
      expect(op.responses[status].description).toBe(ERRORS[status]);
      expect(errorFields(op.responses[status])).toEqual(['success', 'error']);
    }
    expect(op.responses.default.description).toBe(FAULTS);
    expect(errorFields(op.responses.default)).toEqual(['success', 'error']);
    expect(JSON.stringify(op)).not.toContain('$schema');
  });

  it('documents a v2 creation: its body as a client may send it (not required, defaults optional), 413 and 415, and Basic or a participant token', () => {
    const post = route({
      method: 'post',
      path: '/v2/widgets',
      api: 'v2',
      auth: 'basic-or-participant',
      body: widget,
      responses: {
        201: { description: 'Created', schema: widget, alsoAs: ['text/csv'] },
        409: { description: 'A widget of that id exists' },
      },
    });
    const op = operationOf([post], 'post', '/v2/widgets');
    expect(op.operationId).toBe('postV2Widgets');
    expect(op).not.toHaveProperty('description');
    expect(op.security).toEqual([{ basicAuth: [] }, { participantToken: [] }]);
    expect(op.parameters).toEqual([]);
    expect(op.requestBody).toEqual({
      required: false,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { id: { type: 'string' }, colour: { type: 'string', default: 'blue' } },
            required: ['id'],
          },
        },
      },
    });
    expect(Object.keys(op.responses)).toEqual(['201', '400', '401', '409', '413', '415', '429', 'default']);
    expect(Object.keys(op.responses['201'].content)).toEqual(['application/json', 'text/csv']);
    expect(op.responses['201'].content['text/csv']).toEqual({});
    // A route's own text for an error status wins over the general one.
    expect(op.responses['409'].description).toBe('A widget of that id exists');
    expect(op.responses['413'].description).toBe(ERRORS[413]);
    expect(op.responses['415'].description).toBe(ERRORS[415]);
  });

  it('documents a control route as open: no security, no 401, 429 or fault default, answers without a schema as their media type alone', () => {
    const page = route({
      method: 'get',
      path: '/_emulator/page',
      api: 'control',
      auth: 'none',
      responses: { 200: { description: 'The page', contentType: 'text/html' }, 204: { description: 'Nothing' } },
    });
    const op = operationOf([page], 'get', '/_emulator/page');
    expect(op.operationId).toBe('getEmulatorPage');
    expect(op.security).toEqual([]);
    expect(op.responses).toEqual({
      200: { description: 'The page', content: { 'text/html': {} } },
      204: { description: 'Nothing' },
    });
  });

  it('documents media routes with the fault default but no 429 (the rate limiter spares them), in the control error shape', () => {
    const file = route({
      method: 'get',
      path: '/media/files/{file}.mp4',
      api: 'media',
      auth: 'none',
      params: z.object({ file: z.string() }),
      responses: { 200: { description: 'The file', contentType: 'video/mp4' } },
    });
    const op = operationOf([file], 'get', '/media/files/{file}.mp4');
    expect(op.operationId).toBe('getMediaFilesFileMp4');
    expect(Object.keys(op.responses)).toEqual(['200', '400', '404', 'default']);
    expect(errorFields(op.responses['404'])).toEqual(['error']);
    expect(errorFields(op.responses.default)).toEqual(['error']);
  });

  it.each([
    ['v1', 'v1-bearer', [{ apiKey: [] }], ['error'], ['200', '401', '429', 'default']],
    ['realtimekit', 'account-token', [{ apiToken: [] }], ['success', 'errors', 'messages', 'result'], ['200', '401', '403', '429', 'default']],
    ['v2', 'partner-bearer', [{ partnerToken: [] }], ['success', 'error'], ['200', '401', '429', 'default']],
    ['sdk', 'participant', [{ participantToken: [] }], ['success', 'error'], ['200', '401']],
    ['control', 'none', [], ['error'], ['200']],
  ] as const)('documents a %s route with %s auth: its security, error shape and statuses', (api, auth, security, fields, statuses) => {
    const r = route({ method: 'get', path: '/x/list', api, auth, responses: { 200: { description: 'The list', schema: z.array(z.string()) } } });
    const op = operationOf([r], 'get', '/x/list');
    expect(op.security).toEqual(security);
    expect(Object.keys(op.responses)).toEqual(statuses);
    if (auth !== 'none') expect(errorFields(op.responses['401'])).toEqual(fields);
    if (auth === 'account-token') expect(op.responses['403'].description).toBe(ERRORS[403]);
  });

  it('puts the methods of one path under one path item, and leaves out the routes a web SDK calls on its own hosts', () => {
    const doc: Json = buildOpenApi(
      [
        route({ method: 'get', path: '/v2/widgets/{id}', api: 'v2', auth: 'basic', params: z.object({ id: z.string() }) }),
        route({ method: 'delete', path: '/v2/widgets/{id}', api: 'v2', auth: 'basic', params: z.object({ id: z.string() }) }),
        route({ method: 'get', path: '/v2/sdk-only', api: 'sdk', auth: 'participant', host: 'api' }),
        route({ method: 'get', path: '/.well-known/keys.json', api: 'control', auth: 'none' }),
      ],
      'http://emulator.test',
    );
    expect(Object.keys(doc.paths)).toEqual(['/v2/widgets/{id}', '/.well-known/keys.json']);
    expect(Object.keys(doc.paths['/v2/widgets/{id}'])).toEqual(['get', 'delete']);
    expect(doc.paths['/v2/widgets/{id}'].delete.operationId).toBe('deleteV2WidgetsId');
    expect(doc.paths['/.well-known/keys.json'].get.operationId).toBe('getWellKnownKeysJson');
  });

  it.each([
    ['/', 'get'],
    ['/v2/widgets/', 'getV2Widgets'],
    ['/_emulator/ui/{file}.', 'getEmulatorUiFile'],
  ])('gives %s the operation id %s: letters and digits only, however the path ends', (path, id) => {
    expect(operationOf([route({ method: 'get', path, api: 'control', auth: 'none' })], 'get', path).operationId).toBe(id);
  });

  it('documents a path parameter as required even when its schema has a default (OpenAPI requires it of every path parameter)', () => {
    const r = route({ method: 'get', path: '/v2/pages/{page}', api: 'v2', auth: 'basic', params: z.object({ page: z.string().default('1') }) });
    expect(operationOf([r], 'get', '/v2/pages/{page}').parameters).toEqual([
      { name: 'page', in: 'path', required: true, schema: { type: 'string', default: '1' } },
    ]);
  });

  it('documents no parameters for a params or query schema that is not an object of fields', () => {
    const r = route({ method: 'get', path: '/v2/any/{rest}', api: 'v2', auth: 'basic', params: z.record(z.string(), z.string()), query: z.any() });
    expect(operationOf([r], 'get', '/v2/any/{rest}').parameters).toEqual([]);
  });
});
