// The web SDK's signalling protocol, read back from the SDK itself: its bundles carry every
// protobuf message as a protobuf-ts generated class (`super("pkg.Name", [field infos])`), every
// enum as a TypeScript enum, and the event numbers as small tables combined per service. This
// script turns them into .proto files (proto/sdk/, one per protobuf package) and the event table
// (src/realtime/protocol/events.ts), so that the emulator speaks what the SDK speaks, and a new SDK
// version shows its protocol changes as a diff.
//
//   node scripts/sdk-protos.mjs          write the files
//   node scripts/sdk-protos.mjs --check  exit 1 when the committed files differ from what the
//                                        installed SDKs give
//
// Both SDKs are read (the Dyte-branded and the Cloudflare-branded one); the output is their union
// and the differences are printed and written into the files as comments.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import * as acorn from 'acorn';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PROTO_DIR = path.join(ROOT, 'proto', 'sdk');
export const EVENTS_FILE = path.join(ROOT, 'src', 'realtime', 'protocol', 'events.ts');

export const SDKS = [
  { name: '@dytesdk/web-core', bundle: 'node_modules/@dytesdk/web-core/dist/index.es.js' },
  { name: '@cloudflare/realtimekit', bundle: 'node_modules/@cloudflare/realtimekit/dist/index.es.js' },
];

/** protobuf-ts ScalarType numbers → .proto scalar names. */
const SCALARS = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  6: 'fixed64',
  7: 'fixed32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
  15: 'sfixed32',
  16: 'sfixed64',
  17: 'sint32',
  18: 'sint64',
};
const PACKABLE = new Set([1, 2, 3, 4, 5, 6, 7, 8, 13, 15, 16, 17, 18]);
/** protobuf-ts LongType: how the SDK reads a 64-bit field (BIGINT is its default, left unstated). */
const JSTYPE = { 1: 'JS_STRING', 2: 'JS_NUMBER' };

/**
 * The SDK builds event numbers from per-service tables: `(service << 16) + n` for the socket
 * services, `base | n` for the media (SFU) events. The bundle names neither the services nor the
 * tables (minified), so the services are named here by their number; the check of a known event
 * in each guards against a renumbering going unnoticed.
 */
const SERVICES = {
  0: { name: 'room', probe: 'joinRoom' },
  1: { name: 'chat', probe: 'getMessages' },
  2: { name: 'plugin', probe: 'getPlugins' },
  3: { name: 'polls', probe: 'getPolls' },
  4: { name: 'chatChannel', probe: 'createChatChannel' },
  5: { name: 'preset', probe: 'getUserPresets' },
};
/** The event of error answers (checked in each bundle, see readBundle). */
const ERROR_EVENT = 65535;
const MEDIA_BASES = {
  16777216: { name: 'media', probe: 'createWebRTCTransport', about: "the service's own SFU (1 << 24)" },
  50331648: { name: 'cfMedia', probe: 'createWebRTCTransport', about: 'the Cloudflare SFU (3 << 24)' },
};

// ---------------------------------------------------------------------------------------------
// Reading one bundle

function walk(node, visit) {
  if (!node || typeof node.type !== 'string') return;
  visit(node);
  for (const key of Object.keys(node)) {
    const child = node[key];
    if (Array.isArray(child)) for (const c of child) walk(c, visit);
    else if (child && typeof child.type === 'string') walk(child, visit);
  }
}

function literal(node) {
  if (!node) return undefined;
  if (node.type === 'Literal') return node.value;
  // Minifiers write true as !0 and false as !1.
  if (node.type === 'UnaryExpression' && node.operator === '!' && node.argument.type === 'Literal') return !node.argument.value;
  if (node.type === 'UnaryExpression' && node.operator === '-' && node.argument.type === 'Literal') return -node.argument.value;
  return undefined;
}

function prop(obj, name) {
  return obj.properties.find((p) => p.type === 'Property' && (p.key.name ?? p.key.value) === name)?.value;
}

/** The body of `() => X`, the way protobuf-ts refers to other types lazily. */
function arrowBody(node) {
  if (node?.type === 'ArrowFunctionExpression' && node.body.type !== 'BlockStatement') return node.body;
  throw new Error(`expected () => …, got ${node?.type}`);
}

/** A field's type: `{kind, T, L, K, V}` with references still as bundle identifiers. */
function typeInfo(obj) {
  const kind = literal(prop(obj, 'kind'));
  const t = prop(obj, 'T');
  const out = { kind };
  if (kind === 'scalar') {
    out.scalar = literal(t);
    const l = literal(prop(obj, 'L'));
    if (l !== undefined) out.long = l;
  } else if (kind === 'message') {
    const body = arrowBody(t);
    if (body.type !== 'Identifier') throw new Error('message type is not an identifier');
    out.ref = body.name;
  } else if (kind === 'enum') {
    const body = arrowBody(t);
    if (body.type !== 'ArrayExpression') throw new Error('enum type is not a tuple');
    out.enumName = literal(body.elements[0]);
    out.enumVar = body.elements[1].name;
    // protobuf-ts drops a common prefix of the value names (FOO_BAR → BAR) and keeps it here.
    out.enumPrefix = literal(body.elements[2]) ?? '';
  } else if (kind === 'map') {
    out.key = literal(prop(obj, 'K'));
    out.value = typeInfo(prop(obj, 'V'));
  } else throw new Error(`unknown field kind ${kind}`);
  return out;
}

function fieldInfo(obj) {
  const f = { no: literal(prop(obj, 'no')), name: literal(prop(obj, 'name')), ...typeInfo(obj) };
  const repeat = literal(prop(obj, 'repeat'));
  if (repeat) f.repeat = repeat;
  if (literal(prop(obj, 'opt'))) f.opt = true;
  const oneof = literal(prop(obj, 'oneof'));
  if (oneof) f.oneof = oneof;
  const jsonName = literal(prop(obj, 'jsonName'));
  if (jsonName) f.jsonName = jsonName;
  return f;
}

/** `s[s.A = 0] = "A", …` → [['A', 0], …] */
function enumMembers(expr) {
  const list = expr.type === 'SequenceExpression' ? expr.expressions : [expr];
  const members = [];
  for (const e of list) {
    if (e.type === 'Identifier') continue; // the trailing `, s` of the arrow form
    if (e.type !== 'AssignmentExpression' || e.left.type !== 'MemberExpression') return undefined;
    const inner = e.left.property;
    if (inner.type !== 'AssignmentExpression') return undefined;
    members.push([inner.left.property.name ?? inner.left.property.value, literal(inner.right)]);
  }
  return members.length ? members : undefined;
}

/**
 * A TypeScript enum as compiled: `(function(s){ s[s.A=0]="A", … })(X || (X = {}))` or
 * `((s) => (s[s.A=0]="A", …, s))(X || {})` assigned to X.
 */
function enumOf(call) {
  if (call.type !== 'CallExpression' || call.arguments.length !== 1) return undefined;
  const fn = call.callee;
  if (fn.type !== 'FunctionExpression' && fn.type !== 'ArrowFunctionExpression') return undefined;
  let body = fn.body;
  if (body.type === 'BlockStatement') {
    if (body.body.length !== 1 || body.body[0].type !== 'ExpressionStatement') return undefined;
    body = body.body[0].expression;
  }
  const members = enumMembers(body);
  if (!members) return undefined;
  const arg = call.arguments[0];
  const name = arg.type === 'LogicalExpression' && arg.left.type === 'Identifier' ? arg.left.name : undefined;
  return { name, members };
}

/** `{ a: 0, b: 1 }` with only numeric values, or undefined. */
function numberTable(node) {
  if (node?.type !== 'ObjectExpression' || !node.properties.length) return undefined;
  const out = {};
  for (const p of node.properties) {
    const v = literal(p.value);
    if (p.type !== 'Property' || typeof v !== 'number') return undefined;
    out[p.key.name ?? p.key.value] = v;
  }
  return out;
}

export function readBundle(file) {
  const ast = acorn.parse(readFileSync(file, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });
  const classes = new Map(); // class identifier → message
  const instances = new Map(); // const identifier → class identifier
  const enums = new Map(); // enum identifier → members
  const consts = new Map(); // const identifier → initialiser
  const messages = [];
  walk(ast, (node) => {
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
      const ctor = node.body.body.find((m) => m.kind === 'constructor');
      const first = ctor?.value.body.body[0];
      const call = first?.type === 'ExpressionStatement' ? first.expression : undefined;
      if (call?.type !== 'CallExpression' || call.callee.type !== 'Super') return;
      const [nameNode, fieldsNode] = call.arguments;
      const typeName = literal(nameNode);
      if (typeof typeName !== 'string' || fieldsNode?.type !== 'ArrayExpression') return;
      const message = { name: typeName, fields: fieldsNode.elements.map(fieldInfo) };
      messages.push(message);
      if (node.id) classes.set(node.id.name, message);
    } else if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init) {
      consts.set(node.id.name, node.init);
      if (node.init.type === 'NewExpression' && node.init.callee.type === 'Identifier') instances.set(node.id.name, node.init.callee.name);
      const e = enumOf(node.init);
      if (e) enums.set(node.id.name, e.members);
    } else if (node.type === 'CallExpression') {
      const e = enumOf(node);
      if (e?.name && !enums.has(e.name)) enums.set(e.name, e.members);
    }
  });

  const messageOf = (id) => classes.get(instances.get(id) ?? id);
  const resolve = (t) => {
    if (t.kind === 'message') {
      const m = messageOf(t.ref);
      if (!m) throw new Error(`${file}: no message class for ${t.ref}`);
      return { kind: 'message', type: m.name };
    }
    if (t.kind === 'enum') return { kind: 'enum', type: t.enumName };
    if (t.kind === 'map') return { kind: 'map', key: t.key, value: resolve(t.value) };
    return t;
  };
  const outMessages = new Map();
  const outEnums = new Map();
  const addEnum = (t) => {
    const members = enums.get(t.enumVar);
    if (!members) throw new Error(`${file}: no enum ${t.enumVar} for ${t.enumName}`);
    const values = members.map(([n, v]) => [t.enumPrefix + n, v]);
    const seen = outEnums.get(t.enumName);
    if (seen && JSON.stringify(seen) !== JSON.stringify(values)) throw new Error(`${file}: two definitions of ${t.enumName}`);
    outEnums.set(t.enumName, values);
  };
  for (const m of messages) {
    const fields = m.fields.map((f) => {
      if (f.kind === 'enum') addEnum(f);
      if (f.kind === 'map' && f.value.kind === 'enum') addEnum(f.value);
      const { no, name, repeat, opt, oneof, jsonName } = f;
      return {
        no,
        name,
        ...resolve(f),
        ...(repeat ? { repeat } : {}),
        ...(opt ? { opt } : {}),
        ...(oneof ? { oneof } : {}),
        ...(jsonName ? { jsonName } : {}),
      };
    });
    const def = { name: m.name, fields };
    const seen = outMessages.get(m.name);
    if (seen && JSON.stringify(seen) !== JSON.stringify(def)) throw new Error(`${file}: two definitions of ${m.name}`);
    outMessages.set(m.name, def);
  }

  // Event tables: `Kn(SERVICE, table)` → (SERVICE << 16) + n and `Cf(table, BASE)` → BASE | n,
  // recognised by the shape of the helpers' bodies rather than by their minified names.
  const helpers = new Map();
  walk(ast, (node) => {
    if (node.type !== 'FunctionDeclaration' || node.params.length !== 2) return;
    const src = JSON.stringify(node.body, (k, v) => (k === 'start' || k === 'end' ? undefined : v));
    if (src.includes('"operator":"<<"') && src.includes('"value":16')) helpers.set(node.id.name, 'shift');
    else if (src.includes('"operator":"|"') && src.includes('"reduce"')) helpers.set(node.id.name, 'or');
  });
  const events = {};
  const numberOf = (n) => (n.type === 'Identifier' ? literal(consts.get(n.name)) : literal(n));
  walk(ast, (node) => {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.arguments.length !== 2) return;
    const how = helpers.get(node.callee.name);
    if (!how) return;
    const [a, b] = node.arguments;
    if (how === 'shift') {
      const service = numberOf(a);
      const table = numberTable(consts.get(b.name));
      const known = SERVICES[service];
      if (!known || !table) throw new Error(`${file}: unknown event service ${service}`);
      if (!(known.probe in table)) throw new Error(`${file}: service ${service} lacks ${known.probe}; renumbered?`);
      events[known.name] = { base: service << 16, how, table };
    } else {
      const base = numberOf(b);
      const table = numberTable(consts.get(a.name));
      const known = MEDIA_BASES[base];
      if (!known || !table) throw new Error(`${file}: unknown media base ${base}`);
      if (!(known.probe in table)) throw new Error(`${file}: media base ${base} lacks ${known.probe}`);
      events[known.name] = { base, how, table };
    }
  });
  if (!outMessages.size || !Object.keys(events).length) throw new Error(`${file}: found no protobuf messages or event tables`);

  // The error answer to any request comes on an event of its own, a lone constant that the SDK
  // listens to next to the request's own event (`socket.on(ERROR, reject)`).
  const errorConsts = new Set([...consts].filter(([, init]) => literal(init) === ERROR_EVENT).map(([name]) => name));
  let errorEvent;
  walk(ast, (node) => {
    const callee = node.type === 'CallExpression' ? node.callee : undefined;
    if (callee?.type === 'MemberExpression' && callee.property.name === 'on' && errorConsts.has(node.arguments[0]?.name)) errorEvent = ERROR_EVENT;
  });
  if (errorEvent === undefined) throw new Error(`${file}: the SDK no longer listens for errors on event ${ERROR_EVENT}`);
  return { messages: outMessages, enums: outEnums, events, errorEvent };
}

// ---------------------------------------------------------------------------------------------
// Union of the SDKs

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export function unite(reads) {
  const names = reads.map((r) => r.sdk);
  const differences = [];
  const messages = new Map();
  const enums = new Map();
  const only = (what, key, present) => {
    if (present.length < names.length) differences.push(`${what} ${key}: only in ${present.join(', ')}`);
  };
  for (const kind of ['messages', 'enums']) {
    const out = kind === 'messages' ? messages : enums;
    const keys = [...new Set(reads.flatMap((r) => [...r[kind].keys()]))].sort();
    for (const key of keys) {
      const present = reads.filter((r) => r[kind].has(key));
      only(
        kind === 'messages' ? 'message' : 'enum',
        key,
        present.map((r) => r.sdk),
      );
      const defs = present.map((r) => r[kind].get(key));
      if (kind === 'enums') {
        const union = new Map();
        for (const d of defs) for (const [n, v] of d) union.set(n, v);
        if (!defs.every((d) => sameJson(d, defs[0]))) differences.push(`enum ${key}: values differ between ${present.map((r) => r.sdk).join(' and ')}`);
        out.set(
          key,
          [...union].sort((x, y) => x[1] - y[1]),
        );
      } else {
        const byNo = new Map();
        for (const [i, d] of defs.entries())
          for (const f of d.fields) {
            const seen = byNo.get(f.no);
            if (seen && !sameJson(seen, f)) throw new Error(`message ${key} field ${f.no} differs between the SDKs; a union cannot hold both`);
            if (!seen && i > 0) differences.push(`message ${key} field ${f.no} ${f.name}: only in ${present[i].sdk}`);
            byNo.set(f.no, f);
          }
        for (const [i, d] of defs.entries())
          for (const f of defs[0].fields)
            if (i > 0 && !d.fields.some((g) => g.no === f.no)) differences.push(`message ${key} field ${f.no} ${f.name}: only in ${present[0].sdk}`);
        out.set(key, { name: key, fields: [...byNo.values()].sort((x, y) => x.no - y.no) });
      }
    }
  }
  const events = {};
  const services = [...new Set(reads.flatMap((r) => Object.keys(r.events)))];
  const order = [...Object.values(SERVICES), ...Object.values(MEDIA_BASES)].map((s) => s.name);
  services.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  for (const service of services) {
    const present = reads.filter((r) => r.events[service]);
    only(
      'event service',
      service,
      present.map((r) => r.sdk),
    );
    const table = {};
    for (const r of present)
      for (const [name, n] of Object.entries(r.events[service].table)) {
        if (name in table && table[name] !== n) throw new Error(`event ${service}.${name} numbered differently by the SDKs`);
        table[name] = n;
      }
    for (const name of Object.keys(table)) {
      const has = present.filter((r) => name in r.events[service].table).map((r) => r.sdk);
      if (has.length < present.length) differences.push(`event ${service}.${name}: only in ${has.join(', ')}`);
    }
    const { base, how } = present[0].events[service];
    events[service] = { base, how, table: Object.fromEntries(Object.entries(table).sort((x, y) => x[1] - y[1])) };
  }
  return { messages, enums, events, differences, sdks: names };
}

// ---------------------------------------------------------------------------------------------
// Writing

/** A type's package: the longest dotted prefix that names no message (nested types keep their parent). */
function packageOf(name, types) {
  const parts = name.split('.');
  let i = parts.length - 1;
  while (i > 0 && types.has(parts.slice(0, i).join('.'))) i--;
  return parts.slice(0, i).join('.');
}

function fieldType(f) {
  if (f.kind === 'scalar') return SCALARS[f.scalar] ?? fail(`unknown scalar type ${f.scalar}`);
  if (f.kind === 'map') return `map<${SCALARS[f.key]}, ${fieldType(f.value)}>`;
  return `.${f.type}`;
}

function fail(message) {
  throw new Error(message);
}

function fieldLine(f, differences, owner) {
  const options = [];
  if (f.kind === 'scalar' && JSTYPE[f.long]) options.push(`jstype = ${JSTYPE[f.long]}`);
  if (f.repeat === 2 && (f.kind === 'enum' || (f.kind === 'scalar' && PACKABLE.has(f.scalar)))) options.push('packed = false');
  if (f.jsonName) options.push(`json_name = "${f.jsonName}"`);
  const label = f.repeat ? 'repeated ' : f.opt && !f.oneof ? 'optional ' : '';
  const note = differences.filter((d) => d.startsWith(`message ${owner} field ${f.no} `)).map((d) => ` // ${d.slice(d.indexOf(':') + 2)}`);
  return `${label}${fieldType(f)} ${f.name} = ${f.no}${options.length ? ` [${options.join(', ')}]` : ''};${note.join('')}`;
}

function renderMessage(name, model, indent, differences) {
  const pad = '  '.repeat(indent);
  const def = model.messages.get(name);
  const short = name.slice(name.lastIndexOf('.') + 1);
  const lines = [];
  for (const d of differences.filter((d) => d.startsWith(`message ${name}:`))) lines.push(`${pad}// ${d.slice(d.indexOf(':') + 2)}`);
  lines.push(`${pad}message ${short} {`);
  const inner = pad + '  ';
  for (const e of [...model.enums.keys()].filter((n) => n.startsWith(`${name}.`) && !n.slice(name.length + 1).includes('.')))
    lines.push(...renderEnum(e, model, indent + 1, differences));
  for (const m of [...model.messages.keys()].filter((n) => n.startsWith(`${name}.`) && !n.slice(name.length + 1).includes('.')))
    lines.push(...renderMessage(m, model, indent + 1, differences));
  const oneofs = new Map();
  for (const f of def.fields) {
    if (f.oneof) {
      if (!oneofs.has(f.oneof)) {
        oneofs.set(f.oneof, []);
        lines.push({ oneof: f.oneof });
      }
      oneofs.get(f.oneof).push(f);
    } else lines.push(`${inner}${fieldLine(f, differences, name)}`);
  }
  const out = [];
  for (const l of lines)
    if (typeof l === 'string') out.push(l);
    else {
      out.push(`${inner}oneof ${l.oneof} {`);
      for (const f of oneofs.get(l.oneof)) out.push(`${inner}  ${fieldLine(f, differences, name)}`);
      out.push(`${inner}}`);
    }
  out.push(`${pad}}`);
  return out;
}

function renderEnum(name, model, indent, differences) {
  const pad = '  '.repeat(indent);
  const short = name.slice(name.lastIndexOf('.') + 1);
  const out = [];
  for (const d of differences.filter((d) => d.startsWith(`enum ${name}:`))) out.push(`${pad}// ${d.slice(d.indexOf(':') + 2)}`);
  out.push(`${pad}enum ${short} {`);
  const values = model.enums.get(name);
  // Two names for one number is legal in protobuf only when the enum says so.
  if (new Set(values.map((v) => v[1])).size !== values.length) out.push(`${pad}  option allow_alias = true;`);
  for (const [n, v] of values) out.push(`${pad}  ${n} = ${v};`);
  out.push(`${pad}}`);
  return out;
}

const HEADER = (sdks) => [
  `// Generated by scripts/sdk-protos.mjs from the bundles of the web SDKs ${sdks.join(' and ')}.`,
  '// Do not edit; regenerate with `node scripts/sdk-protos.mjs` (`--check` tells whether it is stale).',
];

/** `{ 'pkg.proto': text }` for every protobuf package. */
export function renderProtos(model) {
  const types = new Set([...model.messages.keys(), ...model.enums.keys()]);
  const packages = new Map();
  for (const name of types) {
    const pkg = packageOf(name, model.messages);
    if (!packages.has(pkg)) packages.set(pkg, []);
    packages.get(pkg).push(name);
  }
  const files = {};
  for (const pkg of [...packages.keys()].sort()) {
    const top = packages
      .get(pkg)
      .filter((n) => n.split('.').length === pkg.split('.').length + 1)
      .sort();
    const imports = new Set();
    const refs = (f) => (f.kind === 'map' ? refs(f.value) : f.kind === 'message' || f.kind === 'enum' ? [f.type] : []);
    for (const name of packages.get(pkg))
      for (const f of model.messages.get(name)?.fields ?? [])
        for (const r of refs(f)) {
          const other = packageOf(r, model.messages);
          if (other !== pkg) imports.add(`${other}.proto`);
        }
    const lines = [...HEADER(model.sdks), '', 'syntax = "proto3";', '', `package ${pkg};`, ''];
    if (imports.size) lines.push(...[...imports].sort().map((i) => `import "${i}";`), '');
    for (const name of top) {
      if (model.enums.has(name)) lines.push(...renderEnum(name, model, 0, model.differences));
      else lines.push(...renderMessage(name, model, 0, model.differences));
      lines.push('');
    }
    files[`${pkg}.proto`] = lines.join('\n');
  }
  return files;
}

const quoteKey = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`);

export function renderEvents(model) {
  const about = Object.fromEntries([
    ...Object.values(SERVICES).map((s, i) => [s.name, `service ${i}: (${i} << 16) + n`]),
    ...Object.entries(MEDIA_BASES).map(([base, s]) => [s.name, `${s.about}: ${base} | n`]),
  ]);
  const eventDiffs = model.differences.filter((d) => d.startsWith('event '));
  const lines = [
    ...HEADER(model.sdks),
    '//',
    '// The event numbers of the signalling socket (message.v1.SocketMessage.event), per service, under',
    "// the SDK's own names. The socket services number theirs (service << 16) + n; the media events",
    '// of an SFU are base | n.',
  ];
  if (eventDiffs.length) lines.push('//', '// Where the SDKs differ (the table holds the union):', ...eventDiffs.map((d) => `//   ${d}`));
  lines.push('export const SDK_EVENTS = {');
  for (const [service, { table, base, how }] of Object.entries(model.events)) {
    lines.push(`  // ${about[service]}`, `  ${service}: {`);
    for (const [name, n] of Object.entries(table)) lines.push(`    ${quoteKey(name)}: ${how === 'shift' ? base + n : base | n},`);
    lines.push('  },');
  }
  lines.push(
    '} as const;',
    '',
    'export type SdkService = keyof typeof SDK_EVENTS;',
    '',
    '/**',
    " * The event of the error answer to any request, with the request's id: the payload is a",
    ' * socket.api.ErrorMessage (or a media.edge.ErrorResponse, which the SDK tries first). It is in no',
    " * table of the SDK, which listens for it next to each request's own event.",
    ' */',
    `export const SDK_ERROR_EVENT = ${ERROR_EVENT};`,
    '',
    '/** Every event number → `service.name`, for logs. */',
    'export const SDK_EVENT_NAMES: ReadonlyMap<number, string> = new Map(',
    '  Object.entries(SDK_EVENTS).flatMap(([service, table]) => Object.entries(table).map(([name, n]) => [n, `${service}.${name}`] as const)),',
    ');',
    '',
  );
  return lines.join('\n');
}

/** Everything the script writes, path (from the repository root) → text, and the differences. */
export async function generate() {
  const reads = SDKS.map((s) => ({
    sdk: `${s.name}@${JSON.parse(readFileSync(path.join(ROOT, 'node_modules', s.name, 'package.json'), 'utf8')).version}`,
    ...readBundle(path.join(ROOT, s.bundle)),
  }));
  const model = unite(reads);
  const files = {};
  for (const [name, text] of Object.entries(renderProtos(model))) files[path.join('proto', 'sdk', name)] = text;
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(EVENTS_FILE)) ?? {};
  files[path.relative(ROOT, EVENTS_FILE)] = await prettier.format(renderEvents(model), { ...options, filepath: EVENTS_FILE });
  return { files, differences: model.differences };
}

function readOr(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, differences } = await generate();
  if (differences.length) console.log(`The SDKs differ (the output holds the union):\n${differences.map((d) => `  ${d}`).join('\n')}`);
  let existing = [];
  try {
    existing = readdirSync(PROTO_DIR, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join('proto', 'sdk', e.name));
  } catch {
    // No folder yet: everything is to be written.
  }
  const stale = [
    ...Object.entries(files)
      .filter(([f, text]) => readOr(path.join(ROOT, f)) !== text)
      .map(([f]) => f),
    ...existing.filter((f) => !(f in files)),
  ];
  if (process.argv.includes('--check')) {
    if (stale.length) {
      console.error(`Stale, regenerate with \`node scripts/sdk-protos.mjs\`:\n${stale.map((f) => `  ${f}`).join('\n')}`);
      process.exit(1);
    }
    console.log(`Up to date: ${Object.keys(files).length} files.`);
  } else {
    for (const f of existing) if (!(f in files)) rmSync(path.join(ROOT, f));
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(ROOT, f)), { recursive: true });
      writeFileSync(path.join(ROOT, f), text);
    }
    console.log(`Wrote ${Object.keys(files).length} files (${stale.length} changed).`);
  }
}
