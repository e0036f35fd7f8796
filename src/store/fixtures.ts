// Fixtures: the emulator's starting state. Validated at load; an error names the file, the
// path inside it and the rule that failed.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { MAX_WEBHOOKS_PER_ORGANIZATION, WEBHOOK_APIS, WEBHOOK_EVENTS } from '../domain/models.js';
import { presetDocumentSchemas, VIEW_TYPES } from '../domain/presets/preset-document.js';
import {
  livestreamRecord,
  livestreamSessionRecord,
  meetingRecord,
  orgProfileRecord,
  participantRecord,
  recordingRecord,
  runtimeRecord,
  sessionRecord,
} from './state-records.js';

/** Kept times of fixture records (state exports carry them; hand-written fixtures need not). */
const isoTime = lazy(() => z.iso.datetime());
const pemKey = lazy(() => z.string().regex(/-----BEGIN (RSA )?PRIVATE KEY-----/, 'must be a PEM RSA private key'));

const uuid = lazy(() => z.uuid());

/**
 * A preset: any part of production's preset document (the rest takes its defaults, see
 * domain/presets/preset-document.ts). `view_type` is the short way to write
 * `config.view_type`; it also takes the view type older fixtures used that no API lists: CHAT,
 * kept as GROUP_CALL. Permission flags of a fixture's own (booleans production does not name) are kept
 * as given.
 */
export const presetFixture = lazy(() => {
  const presetParts = presetDocumentSchemas('partial');
  return z.object({
    id: uuid(),
    name: z.string().min(1).max(255),
    view_type: z
      .enum([...VIEW_TYPES, 'CHAT'])
      .transform((v) => (v === 'CHAT' ? 'GROUP_CALL' : v))
      .optional(),
    config: presetParts.config.optional(),
    permissions: presetParts.permissions.catchall(z.boolean()).optional(),
    ui: presetParts.ui.optional(),
    created_at: isoTime().optional(),
    updated_at: isoTime().optional(),
  });
});

export const categoryFixture = lazy(() =>
  z.object({
    code: z.string().regex(/^\d{1,8}$/, 'must be 1 to 8 digits'),
    label: z.string().min(1).max(100),
    carbon_footprint: z.string().regex(/^\d+(\.\d+)? \S+/, 'must read "<number> <unit>"'),
    certifications: z.array(z.string().min(1).max(100)).max(50),
  }),
);

export const productFixture = lazy(() =>
  z.object({
    category_code: z.string().regex(/^\d{1,8}$/),
    product_id: z.string().regex(/^[A-Za-z0-9]{1,32}$/, 'must be 1 to 32 letters or digits'),
    name: z.string().min(1).max(200),
    brand: z.string().min(1).max(100),
    description: z.string().max(2000).default(''),
    attributes: z.record(z.string().max(64), z.string().max(500)).default({}),
    created_at: isoTime().optional(),
    updated_at: isoTime().optional(),
  }),
);

/** A webhook registered from the fixtures; `id` is generated when absent. */
export const webhookFixture = lazy(() =>
  z.object({
    id: uuid().optional(),
    name: z.string().min(1).max(255),
    url: z.url({ protocol: /^https?$/ }).max(2048),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .refine((events) => new Set(events).size === events.length, 'must not repeat an event'),
    enabled: z.boolean().default(true),
    /** Which API registered it (v2 when absent): its deliveries carry that API's headers (dyte-* for v2, rtk-* for RealtimeKit). */
    registered_through: z.enum(WEBHOOK_APIS).optional(),
    created_at: isoTime().optional(),
    updated_at: isoTime().optional(),
  }),
);

// --- accounts (the RealtimeKit API's tenants) -------------------------------------------------

/** The account every organization belongs to unless its fixture names another. */
export const DEFAULT_ACCOUNT_ID = '00000000000000000000000000000001';
/** The default account's API token when the file does not list that account (the default organization's key: one secret opens both APIs). */
export const DEFAULT_ACCOUNT_TOKEN = 'emulator-api-key';

export const accountFixture = lazy(() =>
  z.object({
    id: z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 lower-case hex digits'),
    name: z.string().min(1).max(200).optional(),
    api_tokens: z.array(z.string().min(8).max(200)).min(1).max(50),
  }),
);
export type AccountFixture = z.infer<ReturnType<typeof accountFixture>>;

/**
 * The accounts a fixtures document gives: its own list, plus the default account when an
 * organization belongs to it (an organization without `account_id` does) and the list lacks it,
 * so that a file written before accounts existed keeps working unchanged.
 */
export function accountsOf(f: { accounts?: AccountFixture[]; organizations: ReadonlyArray<{ account_id?: string }> }): AccountFixture[] {
  const listed = f.accounts ?? [];
  const needsDefault = f.organizations.some((o) => (o.account_id ?? DEFAULT_ACCOUNT_ID) === DEFAULT_ACCOUNT_ID);
  if (!needsDefault || listed.some((a) => a.id === DEFAULT_ACCOUNT_ID)) return listed;
  return [...listed, { id: DEFAULT_ACCOUNT_ID, name: 'Emulator Account', api_tokens: [DEFAULT_ACCOUNT_TOKEN] }];
}

/** The fields of an organization that every fixtures document may give. */
const organizationHead = lazy(() => ({
  id: uuid(),
  name: z.string().min(1).max(200),
  api_key: z.string().min(8).max(200),
  /** The account the organization (an app, to the RealtimeKit API) belongs to; the default account when absent. */
  account_id: accountFixture().shape.id.optional(),
  /** When the app was created (state exports keep it); the load time when absent. */
  created_at: isoTime().optional(),
}));

const organizationSettings = lazy(() => ({
  /** The organization's stored recording config (its storage config without secrets); none when absent. */
  recording_config: z.looseObject({}).nullable().optional(),
  /** Defaults to `default_presets` when absent. */
  presets: z.array(presetFixture()).optional(),
  products: z.array(productFixture()).default([]),
  webhooks: z
    .array(webhookFixture())
    .max(MAX_WEBHOOKS_PER_ORGANIZATION)
    .superRefine((list, ctx) => {
      const ids = new Set<string>();
      const urls = new Set<string>();
      list.forEach((w, i) => {
        if (w.id !== undefined && ids.has(w.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'duplicate webhook id' });
        if (urls.has(w.url)) ctx.addIssue({ code: 'custom', path: [i, 'url'], message: 'duplicate webhook url (one webhook per url)' });
        if (w.id !== undefined) ids.add(w.id);
        urls.add(w.url);
      });
    })
    .optional(),
}));

// --- the sections of a state export -------------------------------------------------------------

/*
 * What a state export adds to a fixtures document (state-records.ts): an organization's profile
 * and resources, and the runtime. Their schemas are the largest of all, and hand-written fixtures
 * (the default ones among them) hold none of these fields, all optional: such a document is read
 * by the same schema without them, which reads it alike (parseFixtures), so that a start does not
 * build them.
 */
const profileSection = {
  /** As a state export holds it; defaults (organizations.service.ts) when absent. */
  profile: () => orgProfileRecord().optional(),
};
const resourceSections = {
  meetings: () => z.array(meetingRecord()).optional(),
  participants: () => z.array(participantRecord()).optional(),
  recordings: () => z.array(recordingRecord()).optional(),
  livestreams: () => z.array(livestreamRecord()).optional(),
  livestream_sessions: () => z.array(livestreamSessionRecord()).optional(),
  sessions: () => z.array(sessionRecord()).optional(),
};
const runtimeSection = {
  /** A state export's clock, id position, pending jobs, deliveries and simulator policy. */
  runtime: () => runtimeRecord().optional(),
};
const ORGANIZATION_SECTIONS = [...Object.keys(profileSection), ...Object.keys(resourceSections)];
const DOCUMENT_SECTIONS = Object.keys(runtimeSection);

/** The schemas of a table of field builders, built now. */
function built<T extends Record<string, () => z.ZodType>>(builders: T): { [K in keyof T]: ReturnType<T[K]> } {
  return Object.fromEntries(Object.entries(builders).map(([name, build]) => [name, build()])) as { [K in keyof T]: ReturnType<T[K]> };
}

/**
 * Whether a document may hold a section of a state export: anything but an object whose
 * organizations are objects without one (`in`: as zod reads a field, inherited ones included).
 */
function mayHoldSections(data: unknown): boolean {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(data) || DOCUMENT_SECTIONS.some((name) => name in data) || !Array.isArray(data.organizations)) return true;
  return data.organizations.some((o) => !isObject(o) || ORGANIZATION_SECTIONS.some((name) => name in o));
}

// --- the document -------------------------------------------------------------------------------

export const organizationFixture = lazy(() =>
  z.object({ ...organizationHead(), ...built(profileSection), ...organizationSettings(), ...built(resourceSections) }),
);
const sectionlessOrganizationFixture = lazy(() => z.object({ ...organizationHead(), ...organizationSettings() }));

const documentHead = lazy(() => ({
  version: z.literal(1),
  categories: z.array(categoryFixture()).default([]),
  default_presets: z.array(presetFixture()).min(1),
  /** PEM (PKCS#8 or PKCS#1) RSA private key that signs webhooks; generated at start when absent. */
  webhook_signing_key: pemKey().optional(),
  /** PEM RSA private key that signs participant tokens; generated at start when absent. */
  participant_token_key: pemKey().optional(),
}));

/** Accounts and their API tokens (RealtimeKit API); see accountsOf for the default. */
const accountList = lazy(() => z.array(accountFixture()).max(1_000).optional());

const fixturesObject = lazy(() =>
  z.object({ ...documentHead(), ...built(runtimeSection), accounts: accountList(), organizations: z.array(organizationFixture()).min(1) }),
);

export type Fixtures = z.infer<ReturnType<typeof fixturesObject>>;

/** The rules across records of a document, whichever schema read it. */
function checkFixtures(f: Fixtures, ctx: z.RefinementCtx<Fixtures>): void {
  // An organization holds one preset per name (the API answers 409 for a taken one), and an
  // organization without presets of its own starts with the default ones.
  const presetNamesOnce = (list: ReadonlyArray<{ name: string }>, path: Array<string | number>) => {
    const names = new Set<string>();
    list.forEach((p, j) => {
      if (names.has(p.name)) ctx.addIssue({ code: 'custom', path: [...path, j, 'name'], message: 'duplicate preset name' });
      names.add(p.name);
    });
  };
  presetNamesOnce(f.default_presets, ['default_presets']);
  const accountIds = new Set<string>();
  const tokens = new Set<string>();
  accountsOf(f).forEach((a, i) => {
    if (accountIds.has(a.id)) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'id'], message: 'duplicate account id' });
    accountIds.add(a.id);
    a.api_tokens.forEach((t, j) => {
      // Which account a token opens must have one answer.
      if (tokens.has(t)) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'api_tokens', j], message: 'an API token belongs to one account only' });
      tokens.add(t);
    });
  });
  f.organizations.forEach((o, i) => {
    if (o.account_id !== undefined && !accountIds.has(o.account_id))
      ctx.addIssue({ code: 'custom', path: ['organizations', i, 'account_id'], message: 'not an account of this file' });
  });
  const seen = new Set<string>();
  f.organizations.forEach((o, i) => {
    if (seen.has(o.id)) ctx.addIssue({ code: 'custom', path: ['organizations', i, 'id'], message: 'duplicate organization id' });
    seen.add(o.id);
    presetNamesOnce(o.presets ?? [], ['organizations', i, 'presets']);
    o.products.forEach((p, j) => {
      if (!f.categories.some((c) => c.code === p.category_code))
        ctx.addIssue({ code: 'custom', path: ['organizations', i, 'products', j, 'category_code'], message: 'not a category of this file' });
    });
  });
  f.organizations.forEach((o, i) => {
    const meetings = new Set((o.meetings ?? []).map((m) => m.id));
    const participants = new Set<string>();
    const sameOrg = (kind: string, list: Array<{ orgId: string; meetingId?: string | null; id: string }> | undefined) =>
      (list ?? []).forEach((r, j) => {
        if (r.orgId !== o.id) ctx.addIssue({ code: 'custom', path: ['organizations', i, kind, j, 'orgId'], message: 'must be the id of its organization' });
        if (r.meetingId !== undefined && r.meetingId !== null && !meetings.has(r.meetingId))
          ctx.addIssue({ code: 'custom', path: ['organizations', i, kind, j, 'meetingId'], message: 'not a meeting of this organization' });
      });
    sameOrg('meetings', o.meetings);
    sameOrg('participants', o.participants);
    sameOrg('recordings', o.recordings);
    sameOrg('livestreams', o.livestreams);
    sameOrg('livestream_sessions', o.livestream_sessions);
    // Sessions are held as the emulator makes them: in the order they started, each ended before
    // its livestream's next one starts, and open exactly while the livestream is LIVE. The lists
    // (newest first) and the newest session of a page read them so.
    const livestreamIds = new Set((o.livestreams ?? []).map((l) => l.id));
    const lastOf = new Map<string, { stoppedTime: number | null }>();
    let startedBefore = -Infinity;
    (o.livestream_sessions ?? []).forEach((ls, j) => {
      const path = ['organizations', i, 'livestream_sessions', j];
      if (!livestreamIds.has(ls.livestreamId))
        ctx.addIssue({ code: 'custom', path: [...path, 'livestreamId'], message: 'not a livestream of this organization' });
      if (ls.startedTime < startedBefore)
        ctx.addIssue({ code: 'custom', path: [...path, 'startedTime'], message: 'sessions are listed in the order they started' });
      if (ls.stoppedTime !== null && ls.stoppedTime < ls.startedTime)
        ctx.addIssue({ code: 'custom', path: [...path, 'stoppedTime'], message: 'a session stops after it starts' });
      const previous = lastOf.get(ls.livestreamId);
      if (previous && (previous.stoppedTime === null || previous.stoppedTime > ls.startedTime))
        ctx.addIssue({ code: 'custom', path: [...path, 'startedTime'], message: "a session starts after its livestream's previous session stopped" });
      startedBefore = Math.max(startedBefore, ls.startedTime);
      lastOf.set(ls.livestreamId, ls);
    });
    (o.livestreams ?? []).forEach((l, j) => {
      const open = lastOf.get(l.id)?.stoppedTime === null;
      if (open !== (l.state === 'LIVE'))
        ctx.addIssue({
          code: 'custom',
          path: ['organizations', i, 'livestreams', j, 'state'],
          message: open ? 'a livestream with an open session is LIVE' : 'a LIVE livestream has an open session (its last one, stoppedTime null)',
        });
    });
    sameOrg('sessions', o.sessions);
    // A participant's presetId is not checked against the organization's presets: a
    // participant outlives a deleted preset (DELETE /v2/presets/{preset_id}), and a state
    // export holds it so.
    (o.participants ?? []).forEach((p, j) => {
      if (participants.has(p.id)) ctx.addIssue({ code: 'custom', path: ['organizations', i, 'participants', j, 'id'], message: 'duplicate participant id' });
      participants.add(p.id);
    });
  });
  // An encoder's push carries nothing but the stream key, and a playback URL nothing but the
  // livestream's id: each must name one livestream, whichever organization holds it.
  const livestreamIds = new Set<string>();
  const streamKeys = new Set<string>();
  f.organizations.forEach((o, i) =>
    (o.livestreams ?? []).forEach((l, j) => {
      const path = ['organizations', i, 'livestreams', j];
      if (livestreamIds.has(l.id))
        ctx.addIssue({ code: 'custom', path: [...path, 'id'], message: 'duplicate livestream id (one livestream per id, across organizations)' });
      if (streamKeys.has(l.streamKey))
        ctx.addIssue({
          code: 'custom',
          path: [...path, 'streamKey'],
          message: 'duplicate stream key (a stream key belongs to one livestream, across organizations)',
        });
      livestreamIds.add(l.id);
      streamKeys.add(l.streamKey);
    }),
  );
  const codes = new Set<string>();
  f.categories.forEach((c, i) => {
    if (codes.has(c.code)) ctx.addIssue({ code: 'custom', path: ['categories', i, 'code'], message: 'duplicate category code' });
    codes.add(c.code);
  });
}

export const fixturesSchema = lazy(() => fixturesObject().superRefine(checkFixtures));
const sectionlessFixturesSchema = lazy(() =>
  z.object({ ...documentHead(), accounts: accountList(), organizations: z.array(sectionlessOrganizationFixture()).min(1) }).superRefine(checkFixtures),
);

export type PresetFixture = z.infer<ReturnType<typeof presetFixture>>;
export type ProductFixture = z.infer<ReturnType<typeof productFixture>>;
export type WebhookFixture = z.infer<ReturnType<typeof webhookFixture>>;

export class FixtureError extends Error {}

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)), '') || '(root)';
}

/**
 * Up to this size a fixtures file is parsed without zod's compiled fast path: compiling a parser
 * for each object schema (preset documents have dozens) costs more than it saves on a document
 * that holds a few records of each, as the default fixtures do (over half of their parse at
 * start). A state export with thousands of records keeps the fast path. Both paths accept and
 * produce the same.
 */
const INTERPRETED_PARSE_MAX_CHARS = 64 * 1024;

export function parseFixtures(data: unknown, source: string, opts: { small?: boolean } = {}): Fixtures {
  const schema = mayHoldSections(data) ? fixturesSchema() : sectionlessFixturesSchema();
  const result = schema.safeParse(data, opts.small ? { jitless: true } : undefined);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new FixtureError(`${source}: ${formatPath(issue.path)}: ${issue.message}`);
  }
  return result.data;
}

export function loadFixturesFile(file: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new FixtureError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new FixtureError(`${file}: (root): not valid JSON (${(err as Error).message})`);
  }
  return parseFixtures(data, file, { small: text.length <= INTERPRETED_PARSE_MAX_CHARS });
}
