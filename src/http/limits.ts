// Every limit the emulator enforces, in one table (documented in the README).
import { MAX_WEBHOOKS_PER_ORGANIZATION, RECORDING_STATUSES, WEBHOOK_EVENTS } from '../domain/models.js';

export const LIMITS = {
  bodyBytes: 1024 * 1024,
  bodyText: '1mb',
  /** JSON nesting (objects and arrays) a body may have; deeper could not even be echoed back. */
  bodyDepth: 32,
  /** PUT /_emulator/state takes a whole state export. */
  stateBodyBytes: 64 * 1024 * 1024,
  stateBodyDepth: 64,
  perPageDefault: 25,
  perPageMax: 100,
  titleMax: 1024,
  nameMax: 255,
  urlMax: 2048,
  clientIdMax: 255,
  secretMax: 4096,
  /** Registered webhooks per organization (emulator decision); config webhooks do not count. */
  webhooksPerOrganization: MAX_WEBHOOKS_PER_ORGANIZATION,
  /** Deliveries one GET /_emulator/webhooks/deliveries answers at most (`limit`). */
  deliveriesPerPageMax: 10_000,
  // Bounds for what had none but the body size (the property tests list every string and
  // array of every request schema and try each at, below and above its bound):
  /** A webhook's `events`: each event at most once, so never more than there are events. */
  webhookEventsMax: WEBHOOK_EVENTS.length,
  /** GET /v2/recordings `status` filter: statuses after splitting the comma lists (repeats allowed). */
  statusFilterItems: RECORDING_STATUSES.length * 2,
  /** GET /v2/recordings `status`: characters of one raw value (a comma list) before splitting. */
  statusFilterChars: 256,
  /** A meeting's `ai_config.transcription.keywords`: terms to listen for. */
  transcriptionKeywordsMax: 100,
  /** Organizations (/v2/orgs): the name as fixtures and the control API bound it, and the profile. */
  orgNameMax: 200,
  orgContactMax: 200,
  orgFeatureFlagsMax: 50,
  orgFeatureFlagMax: 100,
  /** The v1 lookup code in the path (a full code is at most 44 characters; longer is refused as too long). */
  productCodeMax: 1024,
} as const;
