// Snapshots of the whole emulator (GET|PUT /_emulator/state, --state-file): organizations,
// presets, every resource, pending jobs and webhook deliveries, the clock, the id generator's
// position, the simulator policy and the signing keys. The document is a fixtures file, so a
// saved state can also start an emulator (`--fixtures state.json`). Storage secrets are never
// part of it: they are dropped when a recording starts.
//
// Every record goes out through its schema, which fixes the key order, so that
// export → import → export is byte-identical.
import { toIso, type Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import { signingKeyFrom, type KeySlot } from '../core/keys.js';
import type { Scheduler } from '../core/scheduler.js';
import type { AccountsService } from '../domain/accounts/accounts.service.js';
import type { OrganizationsService } from '../domain/organizations/organizations.service.js';
import { presetToFixture } from '../domain/presets/presets.service.js';
import type { Simulator } from '../simulator/simulator.js';
import { FixtureError, parseFixtures, type Fixtures } from '../store/fixtures.js';
import {
  deliveryRecord,
  jobRecord,
  livestreamRecord,
  livestreamSessionRecord,
  meetingRecord,
  orgProfileRecord,
  participantRecord,
  recordingRecord,
  sessionRecord,
  simulatorPolicyRecord,
} from '../store/state-records.js';
import type { Store } from '../store/store.js';
import type { Outbox } from '../webhooks/outbox.js';

export interface StateParts {
  clock: Clock;
  ids: IdGenerator;
  /** Where the id sequence stands once the emulator is built (a reset goes back to it). */
  idsStart: number;
  scheduler: Scheduler;
  store: Store;
  organizations: OrganizationsService;
  accounts: AccountsService;
  simulator: Simulator;
  outbox: Outbox;
  keys: { participantTokens: KeySlot; webhooks: KeySlot };
  /** Everything else that a load starts afresh (journal, faults, rate limiter). */
  volatile: ReadonlyArray<{ reset(): void }>;
}

export type StateDocument = Fixtures;

export class StateService {
  constructor(
    private readonly parts: StateParts,
    private readonly baseline: Fixtures,
  ) {
    // A saved state can also be the fixtures the emulator starts from (`--fixtures state.json`):
    // its jobs and keys pass the same checks as an import's.
    this.check(baseline, 'fixtures');
  }

  /** Back to the fixtures the emulator started with. */
  reset(): void {
    this.load(this.baseline, true);
  }

  /** Validates an imported document (FixtureError names the path and the rule). */
  parse(data: unknown, source: string): StateDocument {
    const doc = parseFixtures(data, source);
    this.check(doc, source);
    return doc;
  }

  /** What the fixtures schema alone cannot tell: jobs its scheduler can run, usable keys. */
  private check(doc: StateDocument, source: string): void {
    doc.runtime?.jobs.forEach((j, i) => {
      const problem = this.parts.scheduler.validate(j);
      if (problem) throw new FixtureError(`${source}: runtime.jobs[${i}].${problem.path}: ${problem.message}`);
    });
    const keys = { webhook_signing_key: doc.webhook_signing_key, participant_token_key: doc.participant_token_key };
    for (const [name, pem] of Object.entries(keys)) {
      if (pem === undefined) continue;
      try {
        signingKeyFrom(pem);
      } catch (err) {
        throw new FixtureError(`${source}: ${name}: not a usable RSA private key (${(err as Error).message})`);
      }
    }
  }

  /** Replaces all state with the document's. */
  load(doc: StateDocument, baseline = false): void {
    const { clock, ids, scheduler, outbox, simulator, organizations, keys } = this.parts;
    for (const part of this.parts.volatile) part.reset();
    clock.reset();
    ids.setPosition(this.parts.idsStart);
    scheduler.reset();
    outbox.reset();
    simulator.reset();
    keys.participantTokens.set(doc.participant_token_key === undefined ? undefined : signingKeyFrom(doc.participant_token_key));
    keys.webhooks.set(doc.webhook_signing_key === undefined ? undefined : signingKeyFrom(doc.webhook_signing_key));
    organizations.load(doc, { baseline });
    this.parts.accounts.load(doc);
    const runtime = doc.runtime;
    if (!runtime) return;
    const savedNow = Date.parse(runtime.clock.now);
    // A manual clock resumes where it was; a real clock never goes back (overdue jobs fire).
    if (clock.mode === 'manual' || savedNow > clock.now()) clock.set(savedNow);
    ids.setPosition(runtime.ids_position);
    simulator.policy = structuredClone(runtime.simulator);
    scheduler.restore(runtime.jobs.map((j, i) => ({ ...structuredClone(j), seq: i })));
    outbox.restore(runtime.deliveries);
  }

  export(): StateDocument {
    const { store, clock, ids, scheduler, outbox, simulator, keys, accounts } = this.parts;
    return {
      version: 1,
      categories: [...store.categories.values()].map((c) => ({
        code: c.code,
        label: c.label,
        carbon_footprint: c.carbonFootprint,
        certifications: [...c.certifications],
      })),
      default_presets: structuredClone(this.baseline.default_presets),
      webhook_signing_key: keys.webhooks.get().privatePem(),
      participant_token_key: keys.participantTokens.get().privatePem(),
      accounts: accounts.export(),
      organizations: [...store.orgs.values()].map((data) => ({
        id: data.org.id,
        name: data.org.name,
        api_key: data.org.apiKey,
        account_id: accounts.accountOf(data.org.id),
        created_at: toIso(accounts.createdAt(data.org.id) ?? clock.now()),
        profile: orgProfileRecord().parse(data.profile),
        ...(data.recordingConfig ? { recording_config: structuredClone(data.recordingConfig) } : {}),
        presets: [...data.presets.values()].map(presetToFixture),
        products: [...data.products.values()].map((p) => ({
          category_code: p.categoryCode,
          product_id: p.productId,
          name: p.name,
          brand: p.brand,
          description: p.description,
          attributes: { ...p.attributes },
          created_at: toIso(p.createdAt),
          updated_at: toIso(p.updatedAt),
        })),
        webhooks: [...data.webhooks.values()].map((w) => ({
          id: w.id,
          name: w.name,
          url: w.url,
          events: [...w.events],
          enabled: w.enabled,
          registered_through: w.registeredThrough,
          created_at: toIso(w.createdAt),
          updated_at: toIso(w.updatedAt),
        })),
        meetings: data.meetingOrder.map((id) => meetingRecord().parse(data.meetings.get(id))),
        participants: [...data.participants.values()].map((p) => participantRecord().parse(p)),
        recordings: data.recordingOrder.map((id) => recordingRecord().parse(data.recordings.get(id))),
        livestreams: data.livestreamOrder.map((id) => livestreamRecord().parse(data.livestreams.get(id))),
        livestream_sessions: data.livestreamSessionOrder.map((id) => livestreamSessionRecord().parse(data.livestreamSessions.get(id))),
        sessions: data.sessionOrder.map((id) => sessionRecord().parse(data.sessions.get(id))),
      })),
      runtime: {
        clock: { now: toIso(clock.now()), mode: clock.mode },
        ids_position: ids.position(),
        jobs: scheduler.list().map(({ key, at, kind, payload }) => jobRecord().parse({ key, at, kind, payload })),
        deliveries: outbox.snapshot().map((d) => deliveryRecord().parse(d)),
        simulator: simulatorPolicyRecord().parse(simulator.policy),
      },
    };
  }
}
