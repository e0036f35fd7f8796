// Organizations: loaded from fixtures, looked up by credentials.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Fixtures, PresetFixture } from '../../store/fixtures.js';
import type { DomainContext } from '../context.js';
import type { Organization, Preset } from '../models.js';
import type { OrgData } from '../../store/store.js';

function sameSecret(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function presetFromFixture(p: PresetFixture): Preset {
  return { id: p.id, name: p.name, viewType: p.view_type, permissions: { ...p.permissions } };
}

export type OrgSeeder = (data: OrgData, fixtureOrg: Fixtures['organizations'][number]) => void;

export class OrganizationsService {
  private byKey = new Map<string, string>();
  private defaultPresets: PresetFixture[] = [];
  /** Other domains add their fixture data for each organization (products, ...). */
  private readonly seeders: OrgSeeder[] = [];

  constructor(private readonly ctx: DomainContext) {}

  addSeeder(seeder: OrgSeeder): void {
    this.seeders.push(seeder);
  }

  /** Replaces all state with the fixtures' (reset is construction from fixtures). */
  load(fixtures: Fixtures): void {
    const { store } = this.ctx;
    store.clear();
    this.byKey.clear();
    this.defaultPresets = fixtures.default_presets;
    for (const c of fixtures.categories) {
      store.categories.set(c.code, { code: c.code, label: c.label, carbonFootprint: c.carbon_footprint, certifications: [...c.certifications] });
    }
    for (const o of fixtures.organizations) {
      const data = this.addOrg({ id: o.id, name: o.name, apiKey: o.api_key }, o.presets ?? this.defaultPresets);
      for (const seed of this.seeders) seed(data, o);
    }
  }

  addOrg(org: Organization, presets: PresetFixture[]): OrgData {
    const data = this.ctx.store.addOrg(org);
    for (const p of presets) data.addPreset(presetFromFixture(p));
    this.byKey.set(org.apiKey, org.id);
    return data;
  }

  /** Basic credentials → the organization, or undefined. */
  authenticate(orgId: string, apiKey: string): Organization | undefined {
    const data = this.ctx.store.org(orgId);
    if (!data || !sameSecret(data.org.apiKey, apiKey)) return undefined;
    return data.org;
  }

  /** v1 Bearer API key → the organization, or undefined. */
  byApiKey(apiKey: string): Organization | undefined {
    const id = this.byKey.get(apiKey);
    return id === undefined ? undefined : this.ctx.store.org(id)?.org;
  }

  get(orgId: string): Organization | undefined {
    return this.ctx.store.org(orgId)?.org;
  }

  list(): Organization[] {
    return [...this.ctx.store.orgs.values()].map((d) => d.org);
  }
}
