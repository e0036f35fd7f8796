// The RealtimeKit API: the v2 operations under the prefix the official Cloudflare client calls,
// /client/v4/accounts/{account_id}/realtime/kit/{app_id}, with an account's API token, plus the
// account's apps. The twins are derived from the route table (realtimeKitRoutes), never listed:
// every v2 route declared anywhere answers under the prefix too, with the same handler and store.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { toIso } from '../../core/clock.js';
import type { App } from '../../domain/accounts/accounts.service.js';
import { errors } from '../../core/errors.js';
import { pageList } from '../../domain/paging.js';
import { route, schemaOf, type AnyRoute } from '../route.js';
import type { AuthInfo } from '../auth.js';
import { ok, paged } from '../v2/mappers.js';
import { envelope, isoTime, pagedEnvelope, pageQuery, uuidParam } from '../v2/schemas.js';

/** Where an account's RealtimeKit resources live. */
const REALTIMEKIT_ACCOUNT_PREFIX = '/client/v4/accounts/{account_id}/realtime/kit';
/** Where an app's v2 operations live: this prefix + the path after `/v2`. */
const REALTIMEKIT_APP_PREFIX = `${REALTIMEKIT_ACCOUNT_PREFIX}/{app_id}`;
const V2_PREFIX = '/v2';

const accountId = lazy(() => z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 lower-case hex digits'));
const accountParams = lazy(() => z.object({ account_id: accountId() }));
const appParams = lazy(() => accountParams().extend({ app_id: uuidParam() }));

/**
 * The RealtimeKit twin of a v2 route: the same declaration (handler, schemas, responses) under
 * the prefix, answered in RealtimeKit's error shape and authenticated by an account's API token.
 */
function twinOf(r: AnyRoute): AnyRoute {
  if (!r.path.startsWith(`${V2_PREFIX}/`)) throw new Error(`${r.path}: a v2 route lives under ${V2_PREFIX}/`);
  const v2 = `${r.method.toUpperCase()} ${r.path}`;
  const v2Params = r.params;
  const extendable = (own: z.ZodType) => {
    if (!(own instanceof z.ZodObject)) throw new Error(`${r.method} ${r.path}: path parameters must be a z.object to be extended`);
    return own;
  };
  // A schema given as it is is checked now; one given as a function when it is first built, with the twin's.
  if (v2Params !== undefined && typeof v2Params !== 'function') extendable(v2Params);
  const params = () => (v2Params === undefined ? appParams() : appParams().extend(extendable(schemaOf(v2Params)).shape));
  return {
    ...r,
    path: REALTIMEKIT_APP_PREFIX + r.path.slice(V2_PREFIX.length),
    api: 'realtimekit',
    auth: 'account-token',
    tag: `RealtimeKit: ${r.tag}`,
    description: `The RealtimeKit form of ${v2}: the same operation on the same data (app id = organization id), with an account's API token.${r.description ? ` ${r.description}` : ''}`,
    params,
  };
}

// --- apps -------------------------------------------------------------------------------------

const appSchema = lazy(() => z.object({ id: z.uuid(), name: z.string(), created_at: isoTime() }));

const appDto = (a: App): z.infer<ReturnType<typeof appSchema>> => ({ id: a.org.id, name: a.org.name, created_at: toIso(a.createdAt) });

const appsQuery = lazy(() =>
  pageQuery().extend({
    search: z.string().max(200).optional().meta({ description: 'Apps whose name contains this text (case-insensitive)' }),
    sort_order: z.enum(['ASC', 'DESC']).default('ASC').meta({ description: 'By creation time; oldest first by default (emulator decision)' }),
  }),
);

/** The account of a request about the account itself (its apps). */
function accountOf(auth: AuthInfo): string {
  if (auth.kind !== 'account') throw errors.unauthorized();
  return auth.account;
}

const appRoutes: AnyRoute[] = [
  route({
    method: 'get',
    path: `${REALTIMEKIT_ACCOUNT_PREFIX}/apps`,
    api: 'realtimekit',
    auth: 'account-token',
    tag: 'RealtimeKit: apps',
    summary: "The account's apps (each one of the emulator's organizations)",
    params: accountParams,
    query: appsQuery,
    responses: { 200: { description: 'A page of apps', schema: () => pagedEnvelope(appSchema()) } },
    handler: ({ deps, auth, query }) => {
      const apps = deps.services.accounts.apps(accountOf(auth));
      const needle = query.search?.toLowerCase();
      const picked = needle === undefined ? apps : apps.filter((a) => a.org.name.toLowerCase().includes(needle));
      const page = pageList(query.sort_order === 'DESC' ? [...picked].reverse() : picked, { page: query.page_no, perPage: query.per_page });
      return paged(page, appDto);
    },
  }),
  route({
    method: 'post',
    path: `${REALTIMEKIT_ACCOUNT_PREFIX}/apps`,
    api: 'realtimekit',
    auth: 'account-token',
    tag: 'RealtimeKit: apps',
    summary: 'Create an app: a new organization of the account, with the default presets',
    params: accountParams,
    body: () => z.object({ name: z.string().min(1).max(200) }),
    responses: { 201: { description: 'The app', schema: () => envelope(z.object({ app: appSchema() })) } },
    handler: ({ deps, auth, body }) => {
      const app = deps.services.accounts.createApp(body.name, accountOf(auth));
      return ok({ app: appDto(app) }, 201);
    },
  }),
];

/**
 * Every app builds its route table, and tests build hundreds of apps: a route's twin is made once
 * (route declarations are module constants), so its extended parameter schema is the same object
 * each time and the OpenAPI document's per-schema memo holds. A cache of a pure function, not state.
 */
const twins = new WeakMap<AnyRoute, AnyRoute>();

/**
 * The apps routes and the RealtimeKit twin of every v2 route of `routes`, in table order. The
 * partner API (/v2/orgs) has none: it manages organizations, not one app's resources, and the
 * apps routes are its RealtimeKit counterpart.
 */
export function realtimeKitRoutes(routes: readonly AnyRoute[]): AnyRoute[] {
  return [
    ...appRoutes,
    ...routes
      .filter((r) => r.api === 'v2' && r.auth !== 'partner-bearer')
      .map((r) => {
        let twin = twins.get(r);
        // Stryker disable next-line ConditionalExpression: the map of twins only saves work: building a twin again gives an equal route.
        if (!twin) twins.set(r, (twin = twinOf(r)));
        return twin;
      }),
  ];
}
