// What every domain service is built with. One object, so constructors stay short.
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { Scheduler } from '../core/scheduler.js';
import { errors } from '../core/errors.js';
import type { Store, OrgData } from '../store/store.js';
import type { DomainEventBus } from './events.js';

export interface DomainContext {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  bus: DomainEventBus;
  scheduler: Scheduler;
}

/** The organization's data, or 401: a caller whose org vanished (reset) is no longer known. */
export function orgData(ctx: DomainContext, orgId: string): OrgData {
  const data = ctx.store.org(orgId);
  if (!data) throw errors.unauthorized('Unknown organization');
  return data;
}
