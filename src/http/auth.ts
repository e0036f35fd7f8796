// Authentication per API (docs/api-v2.md, docs/api-v1.md). Failures are ApiErrors; the error middleware
// renders them. Authorization values are never logged or echoed.
import type { Request } from 'express';
import { errors } from '../core/errors.js';
import { sameSecret } from '../core/secrets.js';
import type { Deps } from '../container.js';
import type { Organization, Participant, Preset } from '../domain/models.js';
import type { ParticipantClaims } from '../domain/participants/participant-tokens.js';
import type { AuthMode } from './route.js';

export type AuthInfo =
  | { kind: 'none' }
  /** The partner credential: no organization of its own, it reaches every one. */
  | { kind: 'partner' }
  /** `account`: set when the organization was reached as an app of that account (RealtimeKit API). */
  | { kind: 'org'; org: Organization; account?: string }
  | { kind: 'participant'; org: Organization; claims: ParticipantClaims; participant: Participant; preset: Preset }
  /** A RealtimeKit request about the account itself (its apps), not about one app. */
  | { kind: 'account'; account: string };

const NONE: AuthInfo = { kind: 'none' };
const PARTNER: AuthInfo = { kind: 'partner' };
const PARTNER_FORM = 'Expected Authorization: Bearer <partner token>';
const PARTICIPANT_FORM = 'Expected Authorization: Bearer <participant token>';

function scheme(header: string): [string, string] {
  const space = header.indexOf(' ');
  // Stryker disable next-line EqualityOperator: Node strips leading whitespace from header values, so the space is never at index 0.
  if (space < 0) return [header.toLowerCase(), ''];
  return [header.slice(0, space).toLowerCase(), header.slice(space + 1).trim()];
}

/** The form v2 expects, named in the messages that refuse another (never the value sent: it is a secret). */
const BASIC_FORM = 'Authorization: Basic base64(<organization id>:<API key>)';
const MALFORMED_BASIC = `Malformed Basic credentials; expected ${BASIC_FORM}`;

/**
 * A participant token is a JWT (three base64url parts); any other Bearer value sent to v2 is most
 * likely an API key sent the v1 way.
 */
const looksLikeJwt = (value: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
const BEARER_KEY_ON_V2 = `v2 expects ${BASIC_FORM}; Bearer is for v1 API keys and participant tokens`;

function basic(deps: Deps, credentials: string): AuthInfo {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) throw errors.unauthorized(MALFORMED_BASIC);
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw errors.unauthorized(MALFORMED_BASIC);
  const org = deps.services.organizations.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1));
  if (!org) throw errors.unauthorized('Invalid organization id or API key');
  return { kind: 'org', org };
}

async function participant(deps: Deps, token: string): Promise<AuthInfo> {
  const claims = await deps.services.participants.tokens.verify(token, deps.clock.now());
  const org = deps.services.organizations.get(claims.orgId);
  const p = org && deps.services.participants.find(org.id, claims.participantId);
  // A deleted participant's token no longer authenticates.
  if (!org || !p || p.meetingId !== claims.meetingId) throw errors.unauthorized('Invalid or expired participant token');
  const preset = deps.services.participants.presetById(org.id, p.presetId);
  if (!preset) throw errors.unauthorized('Invalid or expired participant token');
  return { kind: 'participant', org, claims, participant: p, preset };
}

// --- RealtimeKit: an account API token, the account and the app named in the path ---------------

const ACCOUNT_TOKEN_FORM = 'Expected Authorization: Bearer <API token>';

/**
 * The token must open the path's account (else 403, whether or not that account exists) and the
 * app must be one of its apps (else 404, whether it is unknown or another account's). Runs before
 * the path is validated, on the decoded parameters.
 */
function accountToken(deps: Deps, kind: string, value: string, params: Record<string, string>): AuthInfo {
  const account = deps.services.accounts.authenticate(bearer(kind, value, ACCOUNT_TOKEN_FORM));
  if (!account) throw errors.unauthorized('Invalid API token');
  // Stryker disable next-line StringLiteral: every route with an account token has {account_id} in its path, so the fallback is never used.
  const accountId = params.account_id ?? '';
  if (accountId !== account.id) throw errors.forbidden(`This API token has no access to account ${accountId}`);
  const appId = params.app_id;
  if (appId === undefined) return { kind: 'account', account: account.id };
  const app = deps.services.accounts.app(account.id, appId);
  if (!app) throw errors.notFoundMessage(`No app found with id ${appId}`);
  return { kind: 'org', org: app.org, account: account.id };
}

/** Which API the caller used: RealtimeKit when it came in as an account's app, v2 otherwise. */
export function callerApi(auth: AuthInfo): 'v2' | 'realtimekit' {
  // Stryker disable next-line ConditionalExpression: the one caller reads orgOf(auth) first, which refuses an account-level auth, so auth.kind is never 'account' here.
  return auth.kind === 'account' || (auth.kind === 'org' && auth.account !== undefined) ? 'realtimekit' : 'v2';
}

/** Synchronous but for a participant token (its signature check is async): most requests wait for nothing. */
export function authenticate(deps: Deps, mode: AuthMode, req: Request): AuthInfo | Promise<AuthInfo> {
  if (mode === 'none') return NONE;
  const header = req.headers.authorization;
  if (!header) throw errors.unauthorized('Missing Authorization header');
  const [kind, value] = scheme(header);
  if (mode === 'account-token') return accountToken(deps, kind, value, req.params as Record<string, string>);
  if (mode === 'partner-bearer') {
    if (!sameSecret(bearer(kind, value, PARTNER_FORM), deps.config.partnerToken)) throw errors.unauthorized('Invalid partner token');
    return PARTNER;
  }
  if (mode === 'v1-bearer') {
    const org = deps.services.organizations.byApiKey(bearer(kind, value, 'Expected Authorization: Bearer <API key>'));
    if (!org) throw errors.unauthorized('Invalid API key');
    return { kind: 'org', org };
  }
  if (mode === 'participant') return participant(deps, bearer(kind, value, PARTICIPANT_FORM));
  if (kind === 'basic') return basic(deps, value);
  if (kind === 'bearer' && value && !looksLikeJwt(value)) throw errors.unauthorized(BEARER_KEY_ON_V2);
  if (kind === 'bearer' && mode === 'basic-or-participant') {
    if (!value) throw errors.unauthorized('Missing participant token');
    return participant(deps, value);
  }
  throw errors.unauthorized(
    kind === 'bearer' ? 'Participant tokens are not accepted on this route; use Basic credentials' : 'Unsupported Authorization scheme',
  );
}

/** The value of a `Bearer` header, or a 401 saying which form the route expects. */
function bearer(kind: string, value: string, form: string): string {
  if (kind !== 'bearer' || !value) throw errors.unauthorized(form);
  return value;
}

/** Whether the caller acts for one organization (its credentials, or a participant token of it). */
export function hasOrg(auth: AuthInfo): auth is Extract<AuthInfo, { org: Organization }> {
  return 'org' in auth;
}

/** The organization behind any successful auth by an organization's credentials. */
export function orgOf(auth: AuthInfo): Organization {
  if (!hasOrg(auth)) throw errors.unauthorized();
  return auth.org;
}

/**
 * A participant token may only do what its preset allows (403 otherwise, naming the preset); an
 * organization's credentials may do anything.
 */
export function assertPresetAllows(auth: AuthInfo, permission: 'can_record' | 'can_livestream', what: string): void {
  if (auth.kind === 'participant' && !auth.preset.permissions[permission]) throw errors.forbidden(`Preset ${auth.preset.name} does not allow ${what}`);
}

/** A participant token reaches only its own meeting (403 otherwise). */
export function assertMeetingAccess(auth: AuthInfo, meetingId: string): void {
  if (auth.kind === 'participant' && auth.claims.meetingId !== meetingId) {
    throw errors.forbidden('This participant token does not grant access to that meeting');
  }
}
