// A route is one declaration: path, auth, the schemas of its params, query and body, its
// responses, and its handler. The same declaration routes the request (route-table.ts),
// validates it, and produces the served OpenAPI document: one schema, many uses.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Deps } from '../container.js';
import type { AuthInfo } from './auth.js';

/**
 * realtimekit: the v2 operations under the RealtimeKit prefix, and its apps (realtimekit.routes.ts).
 * sdk: the calls the web SDKs make on their own hosts (src/realtime/sdk-api.routes.ts).
 */
export type Api = 'v2' | 'v1' | 'control' | 'media' | 'realtimekit' | 'sdk';
/**
 * none: open (control API, media, discovery). basic: v2 Basic only. basic-or-participant: v2
 * Basic or a participant token (the four recording routes). v1-bearer: the v1 API key.
 * account-token: a RealtimeKit account's API token, for the account and app in the path.
 * partner-bearer: the partner token (--partner-token), over every organization (/v2/orgs).
 * participant: a participant token only (the web SDK's own calls).
 */
export type AuthMode = 'none' | 'basic' | 'basic-or-participant' | 'v1-bearer' | 'account-token' | 'partner-bearer' | 'participant';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Reply {
  status: number;
  /** Serialized as JSON, unless it is a JsonText already. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A JSON body serialized once, for an answer that never changes (the OpenAPI document, a megabyte): sent as it is. */
export class JsonText {
  private tag: string | undefined;

  constructor(readonly text: string) {}

  /** A strong ETag of the text (a client that has it asks with If-None-Match and is answered 304). */
  get etag(): string {
    return (this.tag ??= `"${createHash('sha256').update(this.text).digest('base64url')}"`);
  }

  /** Whether an If-None-Match header names this text (or any: `*`); weak tags compare as strong ones here. */
  matches(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    return ifNoneMatch.split(',').some((t) => {
      const tag = t.trim().replace(/^W\//, '');
      return tag === '*' || tag === this.etag;
    });
  }
}

export interface HandlerContext<P, Q, B> {
  deps: Deps;
  params: P;
  query: Q;
  body: B;
  auth: AuthInfo;
  req: Request;
  res: Response;
}

/**
 * A route's schema, or a function that builds it: the route modules give functions, called the
 * first time a request or the OpenAPI document needs the schema (schemaOf). Building zod schemas
 * is most of what loading the route modules would cost, and a start should not pay for the
 * schemas of routes a run may never call.
 */
export type Deferred<S extends z.ZodType> = S | (() => S);

/** Schemas given as functions, built once each: the route declarations are constants, and so are their functions. */
const builtSchemas = new WeakMap<() => z.ZodType, z.ZodType>();

/** The schema itself: built on the first call for a function, the same schema on every later call. */
export function schemaOf<S extends z.ZodType>(schema: Deferred<S>): S {
  if (typeof schema !== 'function') return schema;
  let built = builtSchemas.get(schema) as S | undefined;
  if (!built) builtSchemas.set(schema, (built = schema()));
  return built;
}

export interface ResponseSpec {
  description: string;
  /** The answer's schema, for the served OpenAPI document only (answers are not validated). */
  schema?: Deferred<z.ZodType>;
  /** Default application/json. */
  contentType?: string;
  /** Other media types the same answer is given in, by content negotiation (documented without a schema). */
  alsoAs?: readonly string[];
}

type AnyObject = z.ZodType<Record<string, unknown>>;

export interface RouteSpec<P extends AnyObject = AnyObject, Q extends AnyObject = AnyObject, B extends z.ZodType = z.ZodType> {
  method: Method;
  /** OpenAPI-style path: /v2/meetings/{id}. */
  path: string;
  /**
   * The API the route belongs to: its error shape, whether the request journal, fault rules and
   * the rate limiter apply (control: none of them), and the API of unrouted paths under the same
   * first segment.
   */
  api: Api;
  /**
   * The host the route is served on, as the first label of the request's Host (`api` serves
   * `api.localhost:4443`), for the web SDK's hosts; unset: every host. A hosted route is tried
   * before the others on its host, and is left out of the OpenAPI document.
   */
  host?: string;
  /**
   * false: the request journal and the dashboard's feed leave the route's requests out. For the
   * web SDK's telemetry, which every open page sends every few seconds: kept, it would push out of
   * the journal the requests a test looks for.
   */
  journal?: false;
  auth: AuthMode;
  tag: string;
  summary: string;
  description?: string;
  params?: Deferred<P>;
  query?: Deferred<Q>;
  body?: Deferred<B>;
  /** Routes that take whole documents (state import) read more than the usual 1 MiB. */
  largeBody?: boolean;
  responses: Record<number, ResponseSpec>;
  /** Returns the reply, or undefined when it wrote the response itself (media). */
  handler(ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>): Reply | undefined | Promise<Reply | undefined>;
}

// Erased form for tables of routes.
export type AnyRoute = RouteSpec<AnyObject, AnyObject, z.ZodType>;

export function route<P extends AnyObject, Q extends AnyObject, B extends z.ZodType>(spec: RouteSpec<P, Q, B>): AnyRoute {
  return spec;
}
