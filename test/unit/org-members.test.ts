// An organization is made of the members the composition root lists: each seeds its share of a
// document, in list order, and drops what it holds elsewhere before a reset replaces the data.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { EventBus } from '../../src/core/events.js';
import { createIdGenerator } from '../../src/core/ids.js';
import { Scheduler } from '../../src/core/scheduler.js';
import type { DomainContext } from '../../src/domain/context.js';
import type { DomainEvent } from '../../src/domain/events.js';
import type { OrgMember } from '../../src/domain/organizations/org-member.js';
import { OrganizationsService } from '../../src/domain/organizations/organizations.service.js';
import { Store } from '../../src/store/store.js';
import { fixtures, ORG_ID, START } from '../helpers/test-app.js';

function world(members: (log: string[]) => OrgMember[]) {
  const clock = new ManualClock(START);
  const ctx: DomainContext = {
    store: new Store(),
    clock,
    ids: createIdGenerator('org-members'),
    bus: new EventBus<DomainEvent>(),
    scheduler: new Scheduler(clock),
  };
  const log: string[] = [];
  const organizations = new OrganizationsService(ctx, members(log));
  return { ctx, log, organizations };
}

describe('organization members', () => {
  it('seed every organization of a document in list order, each seeing the fresh data with its presets', () => {
    const { log, organizations } = world((log) => [
      { seedOrg: (data, o) => log.push(`a:${o.id}:${data.presets.size > 0}`) },
      { seedOrg: (_data, o) => log.push(`b:${o.id}`) },
    ]);
    organizations.load(fixtures(), { baseline: true });
    const ids = fixtures().organizations.map((o) => o.id);
    expect(log).toEqual(ids.flatMap((id) => [`a:${id}:true`, `b:${id}`]));
  });

  it('on an organization reset: every member drops its share first, in order, then the data is seeded again', () => {
    const { ctx, log, organizations } = world((log) => [
      { resetOrg: (id) => log.push(`reset-a:${id}:${ctx.store.org(id) !== undefined}`), seedOrg: (_d, o) => log.push(`seed-a:${o.id}`) },
      { resetOrg: (id) => log.push(`reset-b:${id}`) },
      { seedOrg: (_d, o) => log.push(`seed-c:${o.id}`) },
    ]);
    organizations.load(fixtures(), { baseline: true });
    log.length = 0;
    organizations.reset(ORG_ID);
    // Reset hooks still see the old data; the seeders run on the new one.
    expect(log).toEqual([`reset-a:${ORG_ID}:true`, `reset-b:${ORG_ID}`, `seed-a:${ORG_ID}`, `seed-c:${ORG_ID}`]);
  });

  it('a reset of an organization made at run time drops members’ shares and seeds nothing', () => {
    const { log, organizations } = world((log) => [{ resetOrg: (id) => log.push(`reset:${id}`), seedOrg: (_d, o) => log.push(`seed:${o.id}`) }]);
    organizations.load(fixtures(), { baseline: true });
    const created = organizations.create('worker 1');
    log.length = 0;
    organizations.reset(created.id);
    expect(log).toEqual([`reset:${created.id}`]);
  });
});
