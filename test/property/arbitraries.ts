// Generators of hostile input for the property tests: JSON bodies of any shape (with
// prototype-pollution keys at any depth, nesting around the 32-level limit, numbers JSON.parse
// rounds to Infinity, lone surrogates, strings around every length limit), query strings,
// path segments and header values.
//
// Bodies are built as plain values and serialized here, not with JSON.stringify of an object
// literal: `{__proto__: x}` in JavaScript sets a prototype instead of making a key, so keys are
// defined with defineProperty and written out by `toJsonText`, exactly as a client would send them.
import fc from 'fast-check';

/** A JSON token written as is (1e400, -0, a truncated document): not every JSON text is a JS value. */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonLike = null | boolean | number | string | RawJson | JsonLike[] | { [key: string]: JsonLike };

export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** An object whose keys are all own data properties, `__proto__` included. */
export function objectOf(entries: ReadonlyArray<readonly [string, JsonLike]>): { [key: string]: JsonLike } {
  const out: { [key: string]: JsonLike } = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

export function toJsonText(v: JsonLike): string {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) return `[${v.map(toJsonText).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${toJsonText(v[k]!)}`)
      .join(',')}}`;
  if (typeof v === 'number' && !Number.isFinite(v)) return 'null';
  return JSON.stringify(v);
}

/** `base` with `value` set at `path` (objects made on the way; arrays and scalars on the way are replaced). */
export function setAt(base: JsonLike, path: readonly string[], value: JsonLike): JsonLike {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const current = base !== null && typeof base === 'object' && !Array.isArray(base) && !(base instanceof RawJson) ? base : {};
  const child = Object.prototype.hasOwnProperty.call(current, head) ? current[head]! : null;
  return objectOf([
    ...Object.keys(current)
      .filter((k) => k !== head)
      .map((k) => [k, current[k]!] as const),
    [head, setAt(child, rest, value)],
  ]);
}

/** Every [path, value] leaf-or-object position of a value, for mutations (the root is []). */
export function objectPaths(v: JsonLike, prefix: string[] = []): string[][] {
  const out: string[][] = [prefix];
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RawJson)) {
    for (const k of Object.keys(v)) out.push(...objectPaths(v[k]!, [...prefix, k]));
  }
  return out;
}

// --- strings ----------------------------------------------------------------------------------

/** The length limits of the API (docs/limits-and-decisions.md and docs/api-v1.md): strings are tried at, below and above each. */
export const LENGTH_LIMITS = [8, 10, 32, 64, 100, 200, 255, 256, 500, 512, 1024, 2000, 2048, 4096] as const;

const SPECIAL_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\ufeff',
  'e\u0301',
  '😀',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ſ',
  'ı',
  '%00',
  '%zz',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://127.0.0.1/x}',
  '{{7*7}}',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  'NaN',
  'Infinity',
  '1e400',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'http://',
  'http://127.0.0.1:9/hook',
  'javascript:alert(1)',
  'ftp://127.0.0.1/x',
  '00000000-0000-4000-8000-000000000001',
  '9f1b7c1e-0000-4000-8000-00000000dead',
  '2026-01-01T00:00:00Z',
  '9999-99-99T99:99:99Z',
  'RECORDING,UPLOADED',
  'group_call_host',
  '101-COLDBREW330',
  '101-COLDBREW330-37',
];

export const nearLimitString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...LENGTH_LIMITS), fc.integer({ min: -1, max: 1 }), fc.constantFrom('x', 'é', '😀', '0'))
  .map(([limit, delta, ch]) => ch.repeat(Math.max(0, Math.ceil((limit + delta) / ch.length))).slice(0, limit + delta));

export const adversarialString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: nearLimitString },
);

// --- JSON values ------------------------------------------------------------------------------

const numbers: fc.Arbitrary<JsonLike> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom<JsonLike>(0, -1, 1, 59, 60, 86_400, 86_401, 65_535, 65_536, 2 ** 31, Number.MAX_SAFE_INTEGER, 0.5, -0.5),
  fc.constantFrom(new RawJson('1e400'), new RawJson('-1e400'), new RawJson('-0'), new RawJson('1e-400'), new RawJson('9007199254740993'), new RawJson('1E2')),
);

export const jsonLeaf: fc.Arbitrary<JsonLike> = fc.oneof(fc.constant(null), fc.boolean(), numbers, adversarialString);

/** Keys a body may carry: the route's own field names, pollution keys, and anything else. */
export function keyArb(routeKeys: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: routeKeys.length > 0 ? 4 : 0, arbitrary: routeKeys.length > 0 ? fc.constantFrom(...routeKeys) : fc.constant('k') },
    { weight: 2, arbitrary: fc.constantFrom(...POLLUTION_KEYS) },
    { weight: 1, arbitrary: fc.constantFrom('polluted', 'toString', 'valueOf', '', ' ', 'a.b', '0', 'length') },
    { weight: 2, arbitrary: adversarialString },
  );
}

/** Any JSON value, shallow enough to be cheap; objects use the route's keys half the time. */
export function jsonValue(routeKeys: readonly string[]): fc.Arbitrary<JsonLike> {
  const key = keyArb(routeKeys);
  return fc.letrec<{ value: JsonLike; array: JsonLike; object: JsonLike }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonLeaf, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((entries) => objectOf(entries)),
  })).value;
}

/** A chain of `levels` nested containers (objects and arrays mixed) around a leaf. */
export function nested(levels: number, keys: readonly string[], leaf: JsonLike = 1): JsonLike {
  let v: JsonLike = leaf;
  for (let i = 1; i < levels; i++) v = i % 5 === 0 ? [v] : objectOf([[keys[i % keys.length] ?? 'a', v]]);
  return v;
}

/** Where prototype pollution could strike: an object whose `__proto__`/`constructor.prototype` carries `polluted`. */
export const pollutionPayload: fc.Arbitrary<JsonLike> = fc.constantFrom<JsonLike>(
  objectOf([['__proto__', objectOf([['polluted', 'yes']])]]),
  objectOf([['constructor', objectOf([['prototype', objectOf([['polluted', 'yes']])]])]]),
  objectOf([['prototype', objectOf([['polluted', 'yes']])]]),
  objectOf([['__proto__', objectOf([['__proto__', objectOf([['polluted', 'yes']])]])]]),
  objectOf([['__proto__', 'polluted']]),
  objectOf([['__proto__', null]]),
  objectOf([['__proto__', [objectOf([['polluted', 'yes']])]]]),
  objectOf([
    ['constructor', 'polluted'],
    ['toString', 'polluted'],
    ['hasOwnProperty', 1],
  ]),
);

// --- query, path and headers ------------------------------------------------------------------

/** Percent-encodes every byte outside the unreserved set, lone surrogates included (as U+FFFD). */
export function pctEncode(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

/**
 * Node's HTTP parser refuses a request whose request line and headers pass 16 KiB (431, before
 * the app sees it), so generated URLs stay under this and the Authorization header under 8 KiB.
 */
export const MAX_URL_BYTES = 7 * 1024;

/** A path segment as it goes on the wire: encoded strings, and raw sequences no client should send. */
export const rawSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: adversarialString
      .filter((s) => s.length > 0)
      .map(pctEncode)
      .filter((s) => s.length <= 5_000),
  },
  { weight: 2, arbitrary: fc.constantFrom('%zz', '%', '%E0%A4%A', '%00', '..', '.', '%2e%2e', '%2F', '%C0%AF', '%FF%FE', 'a%2Fb', '%25', '%7B%7D') },
  { weight: 1, arbitrary: fc.uuid({ version: [1, 3, 4, 5, 7] }) },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 5_000 }).map((n) => 'a'.repeat(n)) },
);

export const queryPair = (routeKeys: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...routeKeys, 'page_no', 'per_page') },
        { weight: 1, arbitrary: fc.constantFrom(...POLLUTION_KEYS) },
        { weight: 1, arbitrary: adversarialString.filter((s) => s.length < 200) },
      ),
      fc.constantFrom('', '[]', '[a]', '[__proto__]', '[0]'),
      fc.oneof(
        adversarialString.filter((s) => s.length < 3_000),
        fc.constantFrom('1', '0', '-1', '100', '101', '1e400', '9007199254740993', 'ASC', 'DESC', 'true'),
      ),
      fc.constantFrom('=', '', '=='),
    )
    .map(([k, suffix, v, eq]) => `${pctEncode(k)}${suffix}${eq === '' ? '' : `${eq}${pctEncode(v)}`}`)
    .filter((pair) => pair.length <= 2_500);

/** A header value Node's client can send (no CR, LF or other control characters, latin-1 only). */
export function headerSafe(s: string): string {
  return [...s].map((c) => (/[\t\x20-\x7e\x80-\xff]/.test(c) ? c : '?')).join('');
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/JSON',
  'application/json; charset=utf-16le',
  'application/json; charset=latin1',
  'application/json; charset=nope',
  'application/vnd.api+json',
  'application/json;;;',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '*/*',
  ';',
  'garbage',
] as const;

export const CONTENT_ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'gzip-but-plain', 'compress', 'x-nope'] as const;
