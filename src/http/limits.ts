// Every limit the emulator enforces, in one table (documented in the README).
import { MAX_WEBHOOKS_PER_ORGANIZATION } from '../domain/models.js';

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
} as const;
