// How a piece of the emulator takes part in an organization's life. The composition root gives
// OrganizationsService one ordered list of members; that list is the whole rule, so adding a
// resource (or anything that holds per-organization state outside the store) touches one place.
import type { Fixtures } from '../../store/fixtures.js';
import type { OrgData } from '../../store/store.js';

export type FixtureOrg = Fixtures['organizations'][number];

export interface OrgMember {
  /**
   * Adds what a fixtures or state document holds for the organization to its fresh data. Runs
   * on every load and on the organization's reset, in list order.
   */
  seedOrg?(data: OrgData, fixtureOrg: FixtureOrg): void;
  /**
   * Drops what it holds outside the store for an organization being reset (pending jobs,
   * webhook deliveries). Runs in list order, before the organization's data is replaced.
   */
  resetOrg?(orgId: string): void;
}
