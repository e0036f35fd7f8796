// Validates a response against the OpenAPI document the app itself serves: the operation is
// found by method and path template, the response by status; its JSON body must match.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import request from 'supertest';
import type { Express } from 'express';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface Operation {
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

async function load(app: Express) {
  let loaded = cache.get(app);
  if (!loaded) {
    loaded = (async () => {
      const res = await request(app).get('/_emulator/openapi.json');
      if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
      const doc = res.body as Doc;
      const ops = new Map<string, Operation[]>();
      for (const [path, methods] of Object.entries(doc.paths)) {
        const template = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
        for (const [method, op] of Object.entries(methods)) {
          const list = ops.get(method) ?? [];
          list.push({ template, responses: op.responses });
          ops.set(method, list);
        }
      }
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
  if (!content) return;
  const media = content[contentType];
  if (!media) throw new Error(`${method.toUpperCase()} ${path} ${res.status}: content type ${contentType} not documented (${Object.keys(content).join(', ')})`);
  if (!media.schema || contentType !== 'application/json') return;
  const key = JSON.stringify(media.schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(media.schema);
    compiled.set(key, validate);
  }
  if (!validate(res.body)) {
    throw new Error(
      `${method.toUpperCase()} ${path} ${res.status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\nbody: ${JSON.stringify(res.body).slice(0, 600)}`,
    );
  }
}
