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
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

export class RouteTable {
  private readonly byMethod = new Map<string, Compiled[]>();
  /** The API of each first segment the table mounts a family of routes under (`v2`, `api`, `v1`, `_emulator`, `media`). */
  private readonly mounts = new Map<string, Api>();

  constructor(readonly routes: readonly AnyRoute[]) {
    for (const route of routes) {
      const method = route.method.toUpperCase();
      let list = this.byMethod.get(method);
      if (!list) this.byMethod.set(method, (list = []));
      list.push(compile(route));
      // A first segment is a mount of an API when the API serves a family of paths under it
      // (a {param}); one that only holds fixed documents (`/.well-known/jwks.json`) is not: other
      // paths under it are unrouted like any other.
      if (!route.path.includes('{')) continue;
      const mount = mountOf(route.path);
      const api = this.mounts.get(mount);
      if (api !== undefined && api !== route.api) throw new Error(`/${mount} holds routes of two APIs (${api}, ${route.api}): a path no route serves there would have no API`);
      this.mounts.set(mount, route.api);
    }
  }

  /** The first route (in table order) that serves the method and raw path, as Express would pick it; HEAD is served by GET routes. */
  resolve(method: string, path: string): Resolved {
    const candidates = this.byMethod.get(method === 'HEAD' ? 'GET' : method);
    if (candidates) {
      for (const c of candidates) {
        const m = c.pattern.exec(path);
        if (m) return { api: c.route.api, route: c.route, raw: m.slice(1), names: c.names };
      }
    }
    return { api: this.apiOf(path), route: undefined, raw: [], names: [] };
  }

  /** The API of a path no route serves: that of the routes mounted under its first segment. */
  apiOf(path: string): Api {
    return this.mounts.get(mountOf(path)) ?? DEFAULT_API;
  }
}

/**
 * The decoded parameters of a resolved route. A broken percent-encoding is a 400 only here, where a
 * route serves the method and path; a path no route serves is a 404 whatever its encoding.
 */
export function decodeParams(resolved: Resolved): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < resolved.names.length; i++) {
    const raw = resolved.raw[i]!;
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
