// Which route serves a request, and which API the request belongs to, decided once per request
// from the route table. The same compiled matchers dispatch the request, decide where a broken
// percent-encoding is a 400, and give the API that the error shape, the request journal, fault
// injection and the rate limiter go by: no second list of prefixes or second copy of the matching.
import type { Response } from 'express';
import { errors } from '../core/errors.js';
import type { AnyRoute, Api } from './route.js';

/** What the table says about one request: always its API; its route when one serves that method and path. */
export interface Resolved {
  api: Api;
  route: AnyRoute | undefined;
  /** The route's parameters as sent (still percent-encoded), in template order. */
  raw: readonly string[];
  names: readonly string[];
}

interface Compiled {
  route: AnyRoute;
  pattern: RegExp;
  names: string[];
}

/**
 * A path under no mount (`/`, `/favicon.ico`, `/.well-known/other`) is answered in the v2
 * envelope: the v2 API is what the emulator is mostly called for.
 */
const DEFAULT_API: Api = 'v2';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A template as Express 5 matches it (path-to-regexp with the app's defaults): on the raw,
 * still percent-encoded path, case-insensitively, with one optional trailing slash, each
 * {param} one or more characters of a single segment (`{file}.mp4` included).
 */
function compile(route: AnyRoute): Compiled {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const parts = segment.split(/(\{[^}]+\})/);
      // Two parameters in one segment would need path-to-regexp's backtracking rules; none is declared.
      if (parts.filter((p) => p.startsWith('{')).length > 1) throw new Error(`${route.path}: one parameter per segment`);
      return parts
        .map((part) => {
          if (!part.startsWith('{')) return escapeRegExp(part);
          names.push(part.slice(1, -1));
          return '([^/]+)';
        })
        .join('');
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}/?$`, 'i'), names };
}

/** The first segment of a path, in lower case (routing ignores case): `/api/v1/x` → `api`. */
function mountOf(path: string): string {
  const end = path.indexOf('/', 1);
  // Stryker disable next-line EqualityOperator: the search starts after the leading slash, so it never finds one at index 0.
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

export class RouteTable {
  private readonly byMethod = new Map<string, Compiled[]>();
  /** The API of each first segment the table mounts a family of routes under (`v2`, `api`, `v1`, `_emulator`, `media`). */
  private readonly mounts = new Map<string, Api>();

  /** The routes served on one host only (the web SDK's hosts), by the host's first label, then by method. */
  private readonly byHost = new Map<string, Map<string, Compiled[]>>();

  constructor(readonly routes: readonly AnyRoute[]) {
    for (const route of routes) {
      const method = route.method.toUpperCase();
      if (route.host !== undefined) {
        let methods = this.byHost.get(route.host);
        if (!methods) this.byHost.set(route.host, (methods = new Map()));
        let hosted = methods.get(method);
        if (!hosted) methods.set(method, (hosted = []));
        hosted.push(compile(route));
        // A hosted route is no mount: on every other host its first segment is the other routes'.
        continue;
      }
      let list = this.byMethod.get(method);
      if (!list) this.byMethod.set(method, (list = []));
      list.push(compile(route));
      // A first segment is a mount of an API when the API serves a family of paths under it
      // (a {param}); one that only holds fixed documents (`/.well-known/jwks.json`) is not: other
      // paths under it are unrouted like any other.
      if (!route.path.includes('{')) continue;
      const mount = mountOf(route.path);
      const api = this.mounts.get(mount);
      if (api !== undefined && api !== route.api)
        throw new Error(`/${mount} holds routes of two APIs (${api}, ${route.api}): a path no route serves there would have no API`);
      this.mounts.set(mount, route.api);
    }
  }

  /**
   * The first route (in table order) that serves the method and raw path, as Express would pick it;
   * HEAD is served by GET routes. `host` is the request's Host header: the routes of its host
   * (by its first label) come first, then the routes of every host.
   */
  resolve(method: string, path: string, host?: string): Resolved {
    const key = method === 'HEAD' ? 'GET' : method;
    const hosted = this.hostedOn(host)?.get(key);
    return (hosted && match(hosted, path)) ?? match(this.byMethod.get(key), path) ?? { api: this.apiOf(path), route: undefined, raw: [], names: [] };
  }

  /** The hosted routes of a Host header's first label (`api` of `api.localhost:4443`); undefined for most hosts, cheaply. */
  private hostedOn(host: string | undefined): Map<string, Compiled[]> | undefined {
    if (host === undefined) return undefined;
    const dot = host.indexOf('.');
    // Stryker disable next-line EqualityOperator: no route declares a host with an empty first label, so a Host starting with a dot finds nothing either way.
    return dot > 0 ? this.byHost.get(host.slice(0, dot).toLowerCase()) : undefined;
  }

  /**
   * The methods routes serve on the raw path (HEAD where GET is), in a fixed order; empty when no
   * route serves it. Asked only when the request's own method is not served, so that a request a
   * route serves (or a preflight) does not pay for it.
   */
  allowedOn(path: string, host?: string): readonly string[] {
    const hosted = this.hostedOn(host);
    const serves = (list: Compiled[] | undefined) => list?.some((c) => c.pattern.test(path)) ?? false;
    // Stryker disable next-line ConditionalExpression: no route is declared for HEAD, so the table has none to find.
    const allowed = METHOD_ORDER.filter((method) => method !== 'HEAD' && (serves(this.byMethod.get(method)) || serves(hosted?.get(method))));
    return allowed.includes('GET') ? ['GET', 'HEAD', ...allowed.slice(1)] : allowed;
  }

  /**
   * The template of the route of the path's API and the request's method that is nearest to the
   * path, when it is close enough to be a typo (see nearestTemplate); undefined otherwise.
   */
  nearest(method: string, path: string): string | undefined {
    const api = this.apiOf(path);
    const candidates = (this.byMethod.get(method === 'HEAD' ? 'GET' : method) ?? []).filter((c) => c.route.api === api).map((c) => c.route.path);
    return nearestTemplate(candidates, path);
  }

  /** The API of a path no route serves: that of the routes mounted under its first segment. */
  apiOf(path: string): Api {
    return this.mounts.get(mountOf(path)) ?? DEFAULT_API;
  }
}

function match(candidates: readonly Compiled[] | undefined, path: string): Resolved | undefined {
  if (!candidates) return undefined;
  for (const c of candidates) {
    const m = c.pattern.exec(path);
    if (m) return { api: c.route.api, route: c.route, raw: m.slice(1), names: c.names };
  }
  return undefined;
}

/**
 * Emulator decision: a hint is only given for a path at most NEAREST_MAX_EDITS edits (a character
 * inserted, deleted or changed) from a route, and fewer than a third of the route's length; a
 * `{param}` matches any one segment. Further than that, a suggestion would be a guess.
 */
const NEAREST_MAX_EDITS = 3;
/** Edits over the limit all count as one more than it: the exact distance no longer matters. */
const FAR = NEAREST_MAX_EDITS + 1;

/** Levenshtein distance of two short strings, capped at FAR. */
function editDistance(a: string, b: string): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut: a length difference of FAR or more already means a distance of at least FAR.
  if (Math.abs(a.length - b.length) >= FAR) return FAR;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return Math.min(prev[b.length]!, FAR);
}

/** Edits to turn one path segment into a template segment: a whole-segment `{param}` takes any segment. */
function segmentDistance(segment: string, template: string): number {
  // Stryker disable next-line Regex: the greedy (.*) groups take the start and the rest of the text anyway, so either anchor is implied.
  const param = /^(.*)\{[^}]+\}(.*)$/.exec(template);
  if (!param) return editDistance(segment, template);
  const [, prefix, suffix] = param as unknown as [string, string, string];
  // `{file}.mp4`: the fixed parts are compared with the ends of the segment, the middle is the parameter.
  if (segment.length <= prefix.length + suffix.length) return editDistance(segment, prefix + suffix) + 1;
  return Math.min(FAR, editDistance(segment.slice(0, prefix.length), prefix) + editDistance(segment.slice(segment.length - suffix.length), suffix));
}

/** Edits to add or drop a whole segment (its slash included). */
const segmentCost = (segment: string) => Math.min(FAR, (segment.startsWith('{') ? 1 : segment.length) + 1);

/** Edits from a path to a template, segment by segment (an alignment of the two lists of segments), capped at FAR. */
function pathDistance(path: readonly string[], template: readonly string[]): number {
  let prev = [0];
  for (let j = 1; j <= template.length; j++) prev[j] = Math.min(FAR, prev[j - 1]! + segmentCost(template[j - 1]!));
  for (let i = 1; i <= path.length; i++) {
    const row = [Math.min(FAR, prev[0]! + segmentCost(path[i - 1]!))];
    for (let j = 1; j <= template.length; j++) {
      row[j] = Math.min(
        FAR,
        prev[j]! + segmentCost(path[i - 1]!),
        row[j - 1]! + segmentCost(template[j - 1]!),
        prev[j - 1]! + segmentDistance(path[i - 1]!, template[j - 1]!),
      );
    }
    prev = row;
  }
  return prev[template.length]!;
}

const segmentsOf = (path: string) =>
  // Stryker disable next-line MethodExpression: paths and templates are folded to the same case, and the segment changes are to the same empty head segment.
  path
    .toLowerCase()
    .split('/')
    .filter(
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the first segment is always the empty one before the leading slash, and it aligns at no cost either way.
      (s, i) => i > 0 || s !== '',
    );

/** The template nearest to the path if it is close enough (NEAREST_MAX_EDITS, a third of its length); ties go to the first. */
export function nearestTemplate(templates: readonly string[], path: string): string | undefined {
  const segments = segmentsOf(path.replace(/\/$/, ''));
  let best: { template: string; distance: number } | undefined;
  for (const template of templates) {
    const parts = segmentsOf(template);
    // Every segment added or dropped costs at least one edit (its slash; an empty segment is no
    // more): far apart in count is far apart, without the alignment.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut: a length difference of FAR or more already means a distance of at least FAR.
    if (Math.abs(parts.length - segments.length) >= FAR) continue;
    const distance = pathDistance(segments, parts);
    if (distance === 0 || distance >= FAR || distance * 3 >= template.length) continue;
    if (!best || distance < best.distance) best = { template, distance };
  }
  return best?.template;
}

/**
 * The decoded parameters of a resolved route. A broken percent-encoding is a 400 only here, where a
 * route serves the method and path; a path no route serves is a 404 whatever its encoding.
 */
export function decodeParams(resolved: Resolved): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < resolved.names.length; i++) {
    const raw = resolved.raw[i]!;
    // Stryker disable next-line ConditionalExpression,StringLiteral,BlockStatement: decodeURIComponent returns a text without % as it is, so the check only skips the call.
    if (!raw.includes('%')) {
      params[resolved.names[i]!] = raw;
      continue;
    }
    try {
      params[resolved.names[i]!] = decodeURIComponent(raw);
    } catch {
      throw errors.malformedPath();
    }
  }
  return params;
}

/** Where the request's resolution is kept for the middleware after it (set first, by the request context). */
export function setResolved(res: Response, resolved: Resolved): void {
  res.locals.resolved = resolved;
}

export function resolvedOf(res: Response): Resolved {
  return res.locals.resolved as Resolved;
}
