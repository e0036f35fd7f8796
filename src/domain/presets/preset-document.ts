// The preset document as production describes it (config, permissions, ui): its enums, its
// schema in three strengths, the defaults that fill what a creator leaves out, and the deep
// merge that PATCH applies. Kept in its wire spelling (snake_case): clients and the frontend
// SDKs read it whole, so there is nothing to gain from a second spelling of sixty fields.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';

// LIVESTREAM is not in the v2 document's list, but the RealtimeKit API (its official client's
// types) and both web SDKs have it: a livestream meeting, the only kind whose hosts the SDK gives
// a livestream control (meeting.livestream) and whose viewers watch the HLS stream.
export const VIEW_TYPES = ['GROUP_CALL', 'WEBINAR', 'AUDIO_ROOM', 'LIVESTREAM'] as const;
export const MEDIA_QUALITIES = ['hd', 'vga', 'qvga'] as const;
export const PRODUCE_PERMISSIONS = ['ALLOWED', 'NOT_ALLOWED', 'CAN_REQUEST'] as const;
export const RECORDER_TYPES = ['RECORDER', 'LIVESTREAMER', 'NONE'] as const;
export const WAITING_ROOM_TYPES = ['SKIP', 'ON_PRIVILEGED_USER_ENTRY', 'SKIP_ON_ACCEPT'] as const;
export const PLUGIN_ACCESS = ['FULL_ACCESS', 'VIEW_ONLY'] as const;

export type ViewType = (typeof VIEW_TYPES)[number];
type Produce = { can_produce: (typeof PRODUCE_PERMISSIONS)[number] };
type Quality = (typeof MEDIA_QUALITIES)[number];

export interface PresetConfig {
  view_type: ViewType;
  max_video_streams: { mobile: number; desktop: number };
  max_screenshare_count: number;
  media: {
    audio: { enable_stereo: boolean; enable_high_bitrate: boolean };
    video: { quality: Quality; frame_rate: number };
    screenshare: { quality: Quality; frame_rate: number };
  };
}

/** A plugin permission's config: a plugin config's id, or the access it grants. */
export type PluginConfig = string | { access_control: (typeof PLUGIN_ACCESS)[number]; handles_view_only: boolean };

export interface PresetPermissions {
  accept_waiting_requests: boolean;
  can_accept_production_requests: boolean;
  can_edit_display_name: boolean;
  can_spotlight: boolean;
  is_recorder: boolean;
  recorder_type: (typeof RECORDER_TYPES)[number];
  disable_participant_audio: boolean;
  disable_participant_screensharing: boolean;
  disable_participant_video: boolean;
  kick_participant: boolean;
  pin_participant: boolean;
  /** Gates starting a recording with a participant token (POST /v2/recordings). */
  can_record: boolean;
  can_livestream: boolean;
  waiting_room_type: (typeof WAITING_ROOM_TYPES)[number];
  plugins: { can_close: boolean; can_start: boolean; can_edit_config: boolean; config: PluginConfig };
  connected_meetings: { can_alter_connected_meetings: boolean; can_switch_connected_meetings: boolean; can_switch_to_parent_meeting: boolean };
  polls: { can_create: boolean; can_vote: boolean; can_view: boolean };
  media: { video: Produce; audio: Produce; screenshare: Produce };
  chat: {
    public: { can_send: boolean; text: boolean; files: boolean };
    private: { can_send: boolean; can_receive: boolean; text: boolean; files: boolean };
  };
  hidden_participant: boolean;
  show_participant_list: boolean;
  can_change_participant_permissions: boolean;
  /** From the transcription guide (not in the schema): this participant's speech is transcribed. */
  transcription_enabled: boolean;
  // The stage, as the RealtimeKit API's preset names it (absent from the v2 document, and from a
  // preset that does not give them): WEBINAR and LIVESTREAM presets have a stage whatever
  // stage_enabled says, and without stage_access the media permissions decide (the SDKs' reading).
  /** A stage in a view type that has none by itself. */
  stage_enabled?: boolean;
  /** ALLOWED: joins the stage at will; CAN_REQUEST: asks a host first; NOT_ALLOWED: never. */
  stage_access?: (typeof PRODUCE_PERMISSIONS)[number];
  /** May grant, deny and remove others' stage access (so may can_accept_production_requests). */
  accept_stage_requests?: boolean;
}

export interface DesignTokens {
  border_radius: 'rounded';
  border_width: 'thin';
  spacing_base: number;
  theme: 'dark';
  colors: {
    brand: Record<'300' | '400' | '500' | '600' | '700', string>;
    background: Record<'600' | '700' | '800' | '900' | '1000', string>;
    danger: string;
    text: string;
    text_on_brand: string;
    success: string;
    video_bg: string;
    warning: string;
  };
  logo: string;
}

export interface PresetUi {
  /** Always present: the frontend SDKs fail on a `ui` without it. */
  design_tokens: DesignTokens;
  config_diff: Record<string, unknown>;
}

/** The whole document but its id and name. A fixture's own permission flags may ride along. */
export interface PresetDocument {
  config: PresetConfig;
  permissions: PresetPermissions;
  ui: PresetUi;
}

type DeepPartial<T> = T extends string | number | boolean ? T : unknown extends T[keyof T] ? T : { [K in keyof T]?: DeepPartial<T[K]> };
export type PresetDocumentPatch = DeepPartial<PresetDocument>;

// --- defaults ------------------------------------------------------------------------------

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * What a preset holds where its creator said nothing. Where production's schema names a
 * default (audio flags, recorder type, spacing, every colour) it is that default; elsewhere
 * (emulator decision, docs/limits-and-decisions.md) an ordinary participant: may speak, show
 * video, share a screen, chat and vote, and holds none of the host's powers (no recording,
 * livestreaming, kicking or muting others, no waiting-room admission).
 */
export const PRESET_DEFAULTS: PresetDocument = deepFreeze({
  config: {
    view_type: 'GROUP_CALL',
    max_video_streams: { mobile: 4, desktop: 9 },
    max_screenshare_count: 1,
    media: {
      audio: { enable_stereo: false, enable_high_bitrate: false },
      video: { quality: 'hd', frame_rate: 30 },
      screenshare: { quality: 'hd', frame_rate: 5 },
    },
  },
  permissions: {
    accept_waiting_requests: false,
    can_accept_production_requests: false,
    can_edit_display_name: true,
    can_spotlight: false,
    is_recorder: false,
    recorder_type: 'NONE',
    disable_participant_audio: false,
    disable_participant_screensharing: false,
    disable_participant_video: false,
    kick_participant: false,
    pin_participant: false,
    can_record: false,
    can_livestream: false,
    waiting_room_type: 'SKIP',
    plugins: { can_close: false, can_start: false, can_edit_config: false, config: { access_control: 'FULL_ACCESS', handles_view_only: false } },
    connected_meetings: { can_alter_connected_meetings: false, can_switch_connected_meetings: false, can_switch_to_parent_meeting: false },
    polls: { can_create: false, can_vote: true, can_view: true },
    media: { video: { can_produce: 'ALLOWED' }, audio: { can_produce: 'ALLOWED' }, screenshare: { can_produce: 'ALLOWED' } },
    chat: {
      public: { can_send: true, text: true, files: true },
      private: { can_send: true, can_receive: true, text: true, files: true },
    },
    hidden_participant: false,
    show_participant_list: true,
    can_change_participant_permissions: false,
    transcription_enabled: false,
  },
  ui: {
    design_tokens: {
      border_radius: 'rounded',
      border_width: 'thin',
      spacing_base: 4,
      theme: 'dark',
      colors: {
        brand: { '300': '#844d1c', '400': '#9d5b22', '500': '#b56927', '600': '#d37c30', '700': '#d9904f' },
        background: { '600': '#222222', '700': '#1f1f1f', '800': '#1b1b1b', '900': '#181818', '1000': '#141414' },
        danger: '#FF2D2D',
        text: '#EEEEEE',
        text_on_brand: '#EEEEEE',
        success: '#62A504',
        video_bg: '#191919',
        warning: '#FFCD07',
      },
      logo: '',
    },
    config_diff: {},
  },
});

// --- merge ---------------------------------------------------------------------------------

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A document's own field: a key such as `toString` in a free-form part is data, not Object.prototype's. */
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/**
 * `patch` laid over `base`, object by object: a given leaf replaces, an absent one stays. Where
 * an object meets what is not one (a plugin config's id replaced by its access object) it is
 * laid over the default at that place, so that the result is always a whole document.
 * Neither input is changed; the result shares nothing with them.
 */
export function mergeDocument(base: unknown, patch: unknown, fallback: unknown): unknown {
  if (patch === undefined) return copy(base);
  if (!isPlainObject(patch)) return copy(patch);
  const from = isPlainObject(base) ? base : isPlainObject(fallback) ? fallback : {};
  const out: Record<string, unknown> = {};
  // Stryker disable next-line ConditionalExpression: every field the patch gives is replaced right after, so copying it first changes nothing.
  for (const [k, v] of Object.entries(from)) out[k] = own(patch, k) === undefined ? copy(v) : undefined;
  for (const [k, v] of Object.entries(patch)) {
    // Stryker disable next-line ConditionalExpression: only an in-process object can hold undefined, and a key holding undefined leaves the emulator as JSON like no key.
    if (v === undefined) continue;
    out[k] = mergeDocument(own(from, k), v, isPlainObject(fallback) ? own(fallback, k) : undefined);
  }
  return out;
}

/** A deep copy of JSON data (a document is only objects, arrays and scalars; cheaper than structuredClone). */
function copy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copy);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = copy(x);
  return out;
}

/** A whole document from what was given (the rest takes PRESET_DEFAULTS). */
export function presetDocument(given: PresetDocumentPatch = {}): PresetDocument {
  return mergeDocument(PRESET_DEFAULTS, given, PRESET_DEFAULTS) as PresetDocument;
}

/** PATCH: only the given fields change, at any depth. */
export function patchDocument(current: PresetDocument, patch: PresetDocumentPatch): PresetDocument {
  return mergeDocument(current, patch, PRESET_DEFAULTS) as PresetDocument;
}

// --- schema --------------------------------------------------------------------------------

/**
 * create: what production requires of a new preset (name, config, ui with every design token;
 * permissions optional, but whole when given). stored: everything, as answered. partial:
 * nothing required (PATCH, fixtures).
 */
type SchemaStrength = 'create' | 'stored' | 'partial';

const COLOR_MAX = 255;
const LOGO_MAX = 2048;

/** The config, permissions and ui schemas of one strength, built the first time they are asked for. */
export function presetDocumentSchemas(strength: SchemaStrength): PresetDocumentSchemas {
  return BUILT[strength]();
}

type PresetDocumentSchemas = ReturnType<typeof buildSchemas>;

const BUILT: Record<SchemaStrength, () => PresetDocumentSchemas> = {
  create: lazy(() => buildSchemas('create')),
  stored: lazy(() => buildSchemas('stored')),
  partial: lazy(() => buildSchemas('partial')),
};

function buildSchemas(strength: SchemaStrength) {
  // `need`: production requires the field (create); `opt`: it does not. Stored requires all.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: not equivalent, but out of Stryker's reach: these schemas are built once per process, so a mutant switched on later never takes effect.
  const need = <T extends z.ZodType>(s: T) => (strength === 'partial' ? s.optional() : s);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: not equivalent, but out of Stryker's reach: these schemas are built once per process, so a mutant switched on later never takes effect.
  const opt = <T extends z.ZodType>(s: T) => (strength === 'stored' ? s : s.optional());
  const bool = z.boolean();
  const count = z.number().int();
  const color = z.string().max(COLOR_MAX);
  const produce = z.object({ can_produce: need(z.enum(PRODUCE_PERMISSIONS)) });
  const quality = z.enum(MEDIA_QUALITIES);

  const config = z.object({
    view_type: need(z.enum(VIEW_TYPES)),
    max_video_streams: need(z.object({ mobile: need(count), desktop: need(count) })),
    max_screenshare_count: need(count),
    media: need(
      z.object({
        audio: opt(z.object({ enable_stereo: opt(bool), enable_high_bitrate: opt(bool) })),
        // Stryker disable next-line MethodExpression: not equivalent, but out of Stryker's reach: these schemas are built once per process, so a mutant switched on later never takes effect.
        video: need(z.object({ quality: need(quality), frame_rate: need(count.max(30)) })),
        screenshare: need(z.object({ quality: need(quality), frame_rate: need(count) })),
      }),
    ),
  });

  const permissions = z.object({
    accept_waiting_requests: need(bool),
    can_accept_production_requests: need(bool),
    can_edit_display_name: need(bool),
    can_spotlight: need(bool),
    is_recorder: opt(bool),
    recorder_type: need(z.enum(RECORDER_TYPES)),
    disable_participant_audio: need(bool),
    disable_participant_screensharing: need(bool),
    disable_participant_video: need(bool),
    kick_participant: need(bool),
    pin_participant: need(bool),
    can_record: need(bool),
    can_livestream: need(bool),
    waiting_room_type: need(z.enum(WAITING_ROOM_TYPES)),
    plugins: need(
      z.object({
        can_close: need(bool),
        can_start: need(bool),
        can_edit_config: need(bool),
        // Stryker disable next-line ObjectLiteral: not equivalent, but out of Stryker's reach: these schemas are built once per process, so a mutant switched on later never takes effect.
        config: need(z.union([z.uuid(), z.object({ access_control: need(z.enum(PLUGIN_ACCESS)), handles_view_only: need(bool) })])),
      }),
    ),
    connected_meetings: need(
      z.object({ can_alter_connected_meetings: need(bool), can_switch_connected_meetings: need(bool), can_switch_to_parent_meeting: need(bool) }),
    ),
    polls: need(z.object({ can_create: need(bool), can_vote: need(bool), can_view: need(bool) })),
    media: need(z.object({ video: need(produce), audio: need(produce), screenshare: need(produce) })),
    chat: need(
      z.object({
        public: need(z.object({ can_send: need(bool), text: need(bool), files: need(bool) })),
        private: need(z.object({ can_send: need(bool), can_receive: need(bool), text: need(bool), files: need(bool) })),
      }),
    ),
    hidden_participant: need(bool),
    show_participant_list: need(bool),
    can_change_participant_permissions: need(bool),
    transcription_enabled: opt(bool),
    // Optional in every strength: a preset without them is answered without them.
    stage_enabled: bool.optional(),
    stage_access: z.enum(PRODUCE_PERMISSIONS).optional(),
    accept_stage_requests: bool.optional(),
  });

  const ui = z.object({
    design_tokens: need(
      z.object({
        border_radius: need(z.enum(['rounded'])),
        border_width: need(z.enum(['thin'])),
        spacing_base: need(z.number()),
        theme: need(z.enum(['dark'])),
        colors: need(
          z.object({
            // Stryker disable next-line ObjectLiteral: not equivalent, but out of Stryker's reach: these schemas are built once per process, so a mutant switched on later never takes effect.
            brand: need(z.object({ '300': need(color), '400': need(color), '500': need(color), '600': need(color), '700': need(color) })),
            // Stryker disable next-line ObjectLiteral: not equivalent, but out of Stryker's reach: these schemas are built once per process, so a mutant switched on later never takes effect.
            background: need(z.object({ '600': need(color), '700': need(color), '800': need(color), '900': need(color), '1000': need(color) })),
            danger: need(color),
            text: need(color),
            text_on_brand: need(color),
            success: need(color),
            video_bg: need(color),
            warning: need(color),
          }),
        ),
        logo: need(z.string().max(LOGO_MAX)),
      }),
    ),
    // Free-form in production; kept as given.
    config_diff: opt(z.looseObject({})),
  });

  return { config, permissions, ui };
}
