// Validates a response against the OpenAPI document the app itself serves: the operation is
// found by method and path template, the response by status; its JSON body must match. When
// MEETINGS_PRODUCTION_OPENAPI names the production service's document, a response of a /v2
// operation that production also has must match production's schema for that status too.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import request from 'supertest';
import type { Express } from 'express';
import { EMULATOR_PREFIX, productionDocument, productionResponseFor, type ProductionDocument } from './production-openapi.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface Operation {
  /** The path template as the served document writes it: /v2/meetings/{id}. */
  path: string;
  template: RegExp;
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

interface Doc {
  paths: Record<string, Record<string, { responses: Operation['responses'] }>>;
}

const cache = new WeakMap<Express, Promise<{ ops: Map<string, Operation[]>; ajv: Ajv2020 }>>();
// Every app serves its own document, but most schemas are the same text from app to app:
// compiled validators are shared by schema text, so a suite of many apps compiles each once.
const sharedAjv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const compiled = new Map<string, ValidateFunction>();

// The same schema object (one document read once) finds its validator without being written out again.
const bySchema = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: unknown): ValidateFunction {
  const object = typeof schema === 'object' && schema !== null ? schema : undefined;
  const known = object && bySchema.get(object);
  if (known) return known;
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = sharedAjv.compile(schema as object);
    compiled.set(key, validate);
  }
  if (object) bySchema.set(object, validate);
  return validate;
}

// Production's schemas compile in an Ajv of their own: its components are registered there once.
let productionAjv: { doc: ProductionDocument; ajv: Ajv2020; compiled: Map<string, ValidateFunction> } | undefined;

function productionValidator(doc: ProductionDocument, schema: unknown): { validate: ValidateFunction; ajv: Ajv2020 } {
  if (productionAjv?.doc !== doc) {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));
    ajv.addSchema(doc.components);
    productionAjv = { doc, ajv, compiled: new Map() };
  }
  const key = JSON.stringify(schema);
  let validate = productionAjv.compiled.get(key);
  if (!validate) {
    validate = productionAjv.ajv.compile(schema as object);
    productionAjv.compiled.set(key, validate);
  }
  return { validate, ajv: productionAjv.ajv };
}

/**
 * The production check of one response: the status must be one production documents for the
 * operation when it is a success (an error status production leaves out is the emulator's own,
 * such as a 404 for an unknown id), and a JSON body must match production's schema.
 */
function assertMatchesProduction(op: Operation, method: string, path: string, res: request.Response): void {
  const doc = productionDocument();
  if (!doc || !op.path.startsWith(`${EMULATOR_PREFIX}/`)) return;
  const production = doc.find(method, op.path.slice(EMULATOR_PREFIX.length));
  if (!production) return;
  const where = `${method.toUpperCase()} ${path} ${res.status} (production: ${method.toUpperCase()} ${production.path})`;
  const response = productionResponseFor(production, res.status);
  if (!response) {
    if (res.status < 300) throw new Error(`${where}: production documents ${Object.keys(production.responses).join(', ')}, not ${res.status}`);
    return;
  }
  const contentType = String(res.headers['content-type'] ?? '').split(';')[0]!;
  const schema = response.content?.[contentType]?.schema;
  if (schema === undefined || contentType !== 'application/json') return;
  const { validate, ajv } = productionValidator(doc, schema);
  if (validate(res.body)) return;
  const errors = (validate.errors ?? []).filter((e) => !DELIBERATE_DEPARTURES.some((d) => d.applies(production.path, e, res.body)));
  if (errors.length > 0) {
    throw new Error(
      `${where} does not match the production OpenAPI document: ${ajv.errorsText(errors, { dataVar: 'body' })}\nbody: ${JSON.stringify(res.body).slice(0, 600)}`,
    );
  }
}

/** The value an error points at (its instancePath, a JSON pointer into the body). */
function valueAt(body: unknown, pointer: string): unknown {
  let v = body;
  for (const key of pointer.split('/').slice(1))
    v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return v;
}

const livestreamPath = (path: string) => path.includes('livestream');

/**
 * Where the production reference contradicts itself, the emulator follows its examples and guides
 * (docs/limits-and-decisions.md, "Livestream shapes where the reference contradicts itself"), and
 * where the official clients list more than it does, the clients (the LIVESTREAM view type). Each
 * departure is one named rule, narrow to the field and the value it allows; every other error fails.
 */
const DELIBERATE_DEPARTURES: ReadonlyArray<{ why: string; applies: (path: string, e: ErrorObject, body: unknown) => boolean }> = [
  {
    why: 'A livestream waiting for ingest or stopped is OFFLINE (examples, RTMP guide, webhook), outside the status enums',
    applies: (path, e, body) => livestreamPath(path) && e.keyword === 'enum' && /\/status$/.test(e.instancePath) && valueAt(body, e.instancePath) === 'OFFLINE',
  },
  {
    why: '`disabled` is a boolean (examples and LivestreamBase), though some operations type it as a string',
    applies: (path, e, body) =>
      livestreamPath(path) && e.keyword === 'type' && /\/disabled$/.test(e.instancePath) && typeof valueAt(body, e.instancePath) === 'boolean',
  },
  {
    why: 'ingest and viewer seconds are integers (examples), though some schemas type them as strings',
    applies: (path, e, body) =>
      livestreamPath(path) &&
      e.keyword === 'type' &&
      /\/(total_)?(ingest|viewer)_seconds$/.test(e.instancePath) &&
      Number.isInteger(valueAt(body, e.instancePath)),
  },
  {
    why: 'a livestream without a name or a meeting shows null there (examples)',
    applies: (path, e, body) =>
      livestreamPath(path) && e.keyword === 'type' && /\/(name|meeting_id)$/.test(e.instancePath) && valueAt(body, e.instancePath) === null,
  },
  {
    why: "a preset's view_type may be LIVESTREAM, which the RealtimeKit API's official client and both web SDKs list (the only view type whose host the SDK gives a livestream control)",
    applies: (path, e, body) =>
      /\/presets(\/|$)/.test(path) && e.keyword === 'enum' && /\/config\/view_type$/.test(e.instancePath) && valueAt(body, e.instancePath) === 'LIVESTREAM',
  },
  {
    why: 'daywise livestream analytics is a list of days (its example), which the single object of its schema cannot hold',
    applies: (path, e, body) =>
      path.endsWith('/analytics/livestreams/daywise') && e.keyword === 'type' && e.instancePath === '/data' && Array.isArray(valueAt(body, '/data')),
  },
];

/**
 * The operations of the served documents, by their ETag: the apps of a suite serve a handful of
 * documents (their public URL is in them), about a megabyte each to fetch and parse, so an app
 * that serves a document already read answers 304 to If-None-Match.
 */
const opsByTag = new Map<string, Map<string, Operation[]>>();

function operationsOf(doc: Doc): Map<string, Operation[]> {
  const ops = new Map<string, Operation[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    const template = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries(methods)) {
      const list = ops.get(method) ?? [];
      list.push({ path, template, responses: op.responses });
      ops.set(method, list);
    }
  }
  return ops;
}

async function load(app: Express) {
  let loaded = cache.get(app);
  if (!loaded) {
    loaded = (async () => {
      const get = request(app).get('/_emulator/openapi.json');
      const res = await (opsByTag.size > 0 ? get.set('if-none-match', [...opsByTag.keys()].join(', ')) : get);
      const tag: string | undefined = res.headers.etag;
      if (!tag) throw new Error(`openapi.json answered ${res.status} without an ETag`);
      const known = opsByTag.get(tag);
      if (res.status === 304 && known) return { ops: known, ajv: sharedAjv };
      if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
      const ops = operationsOf(res.body as Doc);
      if (opsByTag.size >= 8) opsByTag.delete(opsByTag.keys().next().value!);
      opsByTag.set(tag, ops);
      return { ops, ajv: sharedAjv };
    })();
    cache.set(app, loaded);
  }
  return loaded;
}

export async function assertMatchesOpenApi(app: Express, method: string, url: string, res: request.Response): Promise<void> {
  const path = url.split('?')[0]!;
  const { ops, ajv } = await load(app);
  const candidates = (ops.get(method) ?? []).filter((o) => o.template.test(path));
  // Unknown routes answer the v2 404 envelope and are not in the document.
  if (candidates.length === 0) {
    if (res.status === 404 || res.status === 405) return;
    throw new Error(`${method.toUpperCase()} ${path} answered ${res.status} but is not in the OpenAPI document`);
  }
  // Prefer the most specific template (fewest parameters).
  const op = candidates.sort((a, b) => a.template.source.split('[^/]+').length - b.template.source.split('[^/]+').length)[0]!;
  const response = op.responses[String(res.status)] ?? (res.status >= 400 ? op.responses.default : undefined);
  if (!response)
    throw new Error(`${method.toUpperCase()} ${path} answered ${res.status}, not documented (documented: ${Object.keys(op.responses).join(', ')})`);
  const contentType = String(res.headers['content-type'] ?? '').split(';')[0]!;
  const content = response.content;
  if (!content) return assertMatchesProduction(op, method, path, res);
  const media = content[contentType];
  if (!media) throw new Error(`${method.toUpperCase()} ${path} ${res.status}: content type ${contentType} not documented (${Object.keys(content).join(', ')})`);
  if (media.schema && contentType === 'application/json') {
    const validate = validatorFor(media.schema);
    if (!validate(res.body)) {
      throw new Error(
        `${method.toUpperCase()} ${path} ${res.status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\nbody: ${JSON.stringify(res.body).slice(0, 600)}`,
      );
    }
  }
  assertMatchesProduction(op, method, path, res);
}
