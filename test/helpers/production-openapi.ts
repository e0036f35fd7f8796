// The production service's published OpenAPI 3.0 document, when MEETINGS_PRODUCTION_OPENAPI names
// it: a second oracle for response shapes. The emulator's own document says what the emulator
// promises; this one says what a client generated from production accepts. The document is read
// from wherever the variable points and is never part of the repository.
//
// OpenAPI 3.0 schemas are not JSON Schema: `nullable: true` widens a type to null, `$ref` points
// into `components`, `exclusiveMinimum` is a boolean, and `example`, `xml`, `discriminator` and
// `x-*` are annotations. openApi30ToJsonSchema turns one into draft 2020-12 for Ajv.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export const PRODUCTION_OPENAPI_ENV = 'MEETINGS_PRODUCTION_OPENAPI';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keywords of 3.0 that only annotate: dropped so that a strict JSON Schema reader does not choke. */
const ANNOTATIONS = new Set(['example', 'examples', 'xml', 'discriminator', 'externalDocs', 'deprecated', 'nullable']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs'];
const SCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf', 'prefixItems'];
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'];

/**
 * One OpenAPI 3.0 schema as JSON Schema (draft 2020-12). `refBase` is put in front of every
 * `#/components/schemas/<name>` reference, which becomes `<refBase>#/$defs/<name>`, so that the
 * converted components can be registered once under that id and shared by every response schema.
 */
export function openApi30ToJsonSchema(schema: unknown, refBase = ''): unknown {
  if (Array.isArray(schema)) return schema.map((s) => openApi30ToJsonSchema(s, refBase));
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(value);
      if (!m) throw new Error(`production OpenAPI: unsupported schema reference ${value}`);
      out.$ref = `${refBase}#/$defs/${m[1]}`;
    } else if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, openApi30ToJsonSchema(v, refBase)]));
    } else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((s) => openApi30ToJsonSchema(s, refBase));
    } else if (SCHEMA_VALUES.includes(key) && (isObject(value) || Array.isArray(value))) {
      out[key] = openApi30ToJsonSchema(value, refBase);
    } else {
      out[key] = value;
    }
  }
  // 3.0 spells an exclusive bound as a flag on minimum/maximum; 2020-12 as a number of its own.
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
  if (schema.nullable !== true) return out;
  // nullable widens whatever the schema allows by null.
  if (typeof out.type === 'string' && out.$ref === undefined && !SCHEMA_LISTS.some((k) => k in out)) {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

export interface ProductionResponse {
  description?: string;
  content?: Record<string, { schema?: unknown }>;
}

export interface ProductionOperation {
  method: string;
  /** As production writes it, without the server's /v2: `/meetings/{meeting_id}`. */
  path: string;
  responses: Record<string, ProductionResponse>;
}

export interface ProductionDocument {
  operations: ProductionOperation[];
  /** Every component schema, converted, as `$defs` of one schema whose `$id` is `componentsId`. */
  components: { $id: string; $defs: Record<string, unknown> };
  componentsId: string;
  /** The operation for a method and a path template of any parameter names, if production has it. */
  find(method: string, template: string): ProductionOperation | undefined;
}

/** A path template with its parameter names left out, so that `{id}` and `{meeting_id}` compare equal. */
export function templateShape(template: string): string {
  return template.replace(/\{[^}]*\}/g, '{}');
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Reads and converts the document; its response `$ref`s to `#/components/responses` are inlined. */
export function parseProductionDocument(text: string, componentsId = 'https://production-openapi.invalid/components'): ProductionDocument {
  const doc = parse(text) as Json;
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const sharedResponses = isObject(components.responses) ? components.responses : {};
  const resolveResponse = (r: unknown): ProductionResponse => {
    if (isObject(r) && typeof r.$ref === 'string') {
      const m = /^#\/components\/responses\/(.+)$/.exec(r.$ref);
      const target = m ? sharedResponses[m[1]!] : undefined;
      if (!isObject(target)) throw new Error(`production OpenAPI: unresolved response reference ${r.$ref}`);
      return resolveResponse(target);
    }
    const response = (isObject(r) ? r : {}) as ProductionResponse;
    const content = response.content
      ? Object.fromEntries(
          Object.entries(response.content).map(([type, media]) => [
            type,
            { schema: media?.schema === undefined ? undefined : openApi30ToJsonSchema(media.schema, componentsId) },
          ]),
        )
      : undefined;
    return { description: response.description, content };
  };
  const operations: ProductionOperation[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Json)) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method) || !isObject(op)) continue;
      const responses = Object.fromEntries(Object.entries((op.responses ?? {}) as Json).map(([status, r]) => [status, resolveResponse(r)]));
      operations.push({ method, path, responses });
    }
  }
  const byShape = new Map(operations.map((o) => [`${o.method} ${templateShape(o.path)}`, o]));
  return {
    operations,
    componentsId,
    components: {
      $id: componentsId,
      $defs: Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, openApi30ToJsonSchema(s, componentsId)])),
    },
    find: (method, template) => byShape.get(`${method.toLowerCase()} ${templateShape(template)}`),
  };
}

/**
 * The response production documents for a status: the status itself, then its class (`2XX`),
 * then `default`.
 */
export function productionResponseFor(op: ProductionOperation, status: number): ProductionResponse | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

let loaded: { file: string; doc: ProductionDocument } | undefined;

/** The document the variable names, read once per test process; undefined when the variable is unset. */
export function productionDocument(env: NodeJS.ProcessEnv = process.env): ProductionDocument | undefined {
  const file = env[PRODUCTION_OPENAPI_ENV];
  if (!file) return undefined;
  if (loaded?.file !== file) loaded = { file, doc: parseProductionDocument(readFileSync(file, 'utf8')) };
  return loaded.doc;
}

/** The emulator serves production's operations under /v2; production's own paths have no prefix. */
export const EMULATOR_PREFIX = '/v2';
