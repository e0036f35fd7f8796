// Organizations: loaded from fixtures, created by the control API or the partner API (/v2/orgs),
// looked up by credentials.
import { errors } from '../../core/errors.js';
import { sameSecret } from '../../core/secrets.js';
import type { Fixtures, PresetFixture } from '../../store/fixtures.js';
import type { DomainContext } from '../context.js';
import type { Organization, OrgProfile } from '../models.js';
import { paginate, type Page, type PageRequest } from '../paging.js';
import { presetFromFixture } from '../presets/presets.service.js';
import type { OrgData } from '../../store/store.js';
import type { FixtureOrg, OrgMember } from './org-member.js';

/** An organization as the partner API shows it. */
export interface OrgView {
  readonly org: Organization;
  readonly profile: OrgProfile;
}

/** What the partner API sets on an organization besides its name. */
export type OrgProfileInput = Partial<Pick<OrgProfile, 'contact' | 'website' | 'preferredRegion' | 'featureFlags'>>;

/**
 * Emulator decision: an organization made without a profile (fixtures without one, the control
 * API) has no contact, the reserved example site as its website (production requires a URL
 * there) and production's default region.
 */
const DEFAULT_ORG_PROFILE: Readonly<Required<OrgProfileInput>> = Object.freeze({
  contact: '',
  website: 'https://example.com',
  preferredRegion: 'ap-south-1',
  featureFlags: [],
});

function newProfile(input: OrgProfileInput, now: number): OrgProfile {
  return {
    contact: input.contact ?? DEFAULT_ORG_PROFILE.contact,
    website: input.website ?? DEFAULT_ORG_PROFILE.website,
    preferredRegion: input.preferredRegion ?? DEFAULT_ORG_PROFILE.preferredRegion,
    featureFlags: [...(input.featureFlags ?? DEFAULT_ORG_PROFILE.featureFlags)],
    createdAt: now,
    updatedAt: now,
  };
}

export class OrganizationsService {
  private byKey = new Map<string, string>();
  private readonly verified = new Set<string>();
  private defaultPresets: PresetFixture[] = [];
  /** The presets an organization that is not in the fixtures started with (its reset's presets). */
  private readonly startPresets = new Map<string, PresetFixture[]>();
  private fixtures: Fixtures | undefined;

  /**
   * `members`: everything that seeds an organization from a document or holds state for it
   * outside the store, in the order they run (see OrgMember).
   */
  constructor(
    private readonly ctx: DomainContext,
    private readonly members: readonly OrgMember[],
  ) {}

  /** A fresh organization with its presets, then every member's share of the document. */
  private addFromFixture(o: FixtureOrg): OrgData {
    const profile = o.profile ? structuredClone(o.profile) : newProfile({}, this.ctx.clock.now());
    const data = this.addOrg({ id: o.id, name: o.name, apiKey: o.api_key }, o.presets ?? this.defaultPresets, profile);
    for (const m of this.members) m.seedOrg?.(data, o);
    return data;
  }

  /**
   * Replaces all organizations with the document's (reset is construction from fixtures). A
   * state import is not a new baseline: resetting an organization afterwards still returns it
   * to the fixtures the emulator started with.
   */
  load(fixtures: Fixtures, opts: { baseline: boolean }): void {
    const { store } = this.ctx;
    store.clear();
    this.byKey.clear();
    this.verified.clear();
    this.startPresets.clear();
    if (opts.baseline || !this.fixtures) this.fixtures = fixtures;
    this.defaultPresets = fixtures.default_presets;
    for (const c of fixtures.categories) {
      store.categories.set(c.code, { code: c.code, label: c.label, carbonFootprint: c.carbon_footprint, certifications: [...c.certifications] });
    }
    for (const o of fixtures.organizations) {
      this.addFromFixture(o);
      // One that only a state import holds goes back to the presets it was imported with.
      // Stryker disable next-line ConditionalExpression,MethodExpression,ArrowFunction: reset() reseeds a baseline organization from the fixtures and never reads its start-presets entry.
      if (!this.fixtures.organizations.some((b) => b.id === o.id)) this.startPresets.set(o.id, o.presets ?? this.defaultPresets);
    }
  }

  addOrg(org: Organization, presets: PresetFixture[], profile: OrgProfile): OrgData {
    const data = this.ctx.store.addOrg(org, profile);
    const now = this.ctx.clock.now();
    for (const p of presets) data.putPreset(presetFromFixture(p, now));
    this.byKey.set(org.apiKey, org.id);
    return data;
  }

  /**
   * A new organization for one test worker: fresh id and API key, the default presets (with
   * ids of its own), no resources. Categories are shared by all organizations.
   */
  create(name: string | undefined, profile: OrgProfileInput = {}): Organization {
    const id = this.ctx.ids.uuid();
    const org: Organization = { id, name: name ?? `Organization ${id.slice(0, 8)}`, apiKey: this.ctx.ids.token(32) };
    const presets = this.defaultPresets.map((p) => ({ ...p, id: this.ctx.ids.uuid() }));
    this.startPresets.set(id, presets);
    this.addOrg(org, presets, newProfile(profile, this.ctx.clock.now()));
    return org;
  }

  // --- the partner API (/v2/orgs): one partner credential owns every organization ----------

  /** Production refuses a second organization of the same name (409); the control API does not ask. */
  createNamed(name: string, profile: OrgProfileInput): OrgView {
    this.assertNameFree(name, undefined);
    return this.data(this.create(name, profile).id);
  }

  view(orgId: string): OrgView {
    return this.data(orgId);
  }

  private data(orgId: string): OrgData {
    const data = this.ctx.store.org(orgId);
    if (!data) throw errors.notFound('organization', orgId);
    return data;
  }

  /** Every organization, in the order they were made (fixtures first). */
  page(req: PageRequest): Page<OrgView> {
    const { orgs } = this.ctx.store;
    return paginate([...orgs.keys()], (id) => orgs.get(id), req, { newestFirst: false });
  }

  /** Changes only what is given; the API key and the organization's resources stay. */
  edit(orgId: string, patch: OrgProfileInput & { name?: string }): OrgView {
    const data = this.data(orgId);
    if (patch.name !== undefined && patch.name !== data.org.name) this.assertNameFree(patch.name, orgId);
    const { name, ...profile } = patch;
    if (name !== undefined) data.org = { ...data.org, name };
    data.profile = {
      ...data.profile,
      ...Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined)),
      // Stryker disable next-line ObjectLiteral: the array comes from a parsed request body that nothing keeps or changes, so sharing it is safe.
      ...(profile.featureFlags ? { featureFlags: [...profile.featureFlags] } : {}),
      updatedAt: this.ctx.clock.now(),
    };
    return data;
  }

  private assertNameFree(name: string, exceptId: string | undefined): void {
    for (const d of this.ctx.store.orgs.values()) {
      // Stryker disable next-line ConditionalExpression: the organization this spares never has the name asked for, so the name test fails anyway.
      if (d.org.id !== exceptId && d.org.name === name) throw errors.conflict(`Organization with the name ${name} already exists`);
    }
  }

  /**
   * Returns one organization to its fixture state (or, for a created one, to empty but for the
   * presets it was created with: presets made, changed or deleted through the API are undone).
   */
  reset(orgId: string): Organization | undefined {
    const current = this.ctx.store.org(orgId);
    if (!current) return undefined;
    for (const m of this.members) m.resetOrg?.(orgId);
    this.ctx.store.orgs.delete(orgId);
    this.byKey.delete(current.org.apiKey);
    this.verified.clear();
    const fixtureOrg = this.fixtures?.organizations.find((o) => o.id === orgId);
    if (fixtureOrg) return this.addFromFixture(fixtureOrg).org;
    return this.addOrg(current.org, this.startPresets.get(orgId) ?? [], current.profile).org;
  }

  /** Basic credentials → the organization, or undefined. */
  authenticate(orgId: string, apiKey: string): Organization | undefined {
    const data = this.ctx.store.org(orgId);
    if (!data) return undefined;
    // Credentials verified once are remembered (hashing them on every request was ~4% of its
    // CPU); an organization's reset or a reload forgets them.
    const pair = `${orgId}\u0000${apiKey}`;
    if (this.verified.has(pair)) return data.org;
    if (!sameSecret(data.org.apiKey, apiKey)) return undefined;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the set only caches credentials already checked, so clearing it sooner or later changes time and memory, never an answer.
    if (this.verified.size >= 1_000) this.verified.clear();
    this.verified.add(pair);
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
