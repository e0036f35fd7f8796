import { errors } from '../../core/errors.js';
import { orgData, type DomainContext } from '../context.js';
import type { Livestream, LivestreamState, LivestreamWireStatus, Meeting } from '../models.js';
import { paginate, type Page, type PageRequest } from '../paging.js';
import { ACTIVE_LIVESTREAM_STATES, livestreamEventFor, transitionLivestream, type LivestreamEvent } from './livestream-machine.js';
import type { OrgData } from '../../store/store.js';
import type { FixtureOrg, OrgMember } from '../organizations/org-member.js';

export class LivestreamsService implements OrgMember {
  constructor(private readonly ctx: DomainContext) {}

  private meeting(orgId: string, meetingId: string): Meeting {
    const m = orgData(this.ctx, orgId).meetings.get(meetingId);
    if (!m) throw errors.notFound('meeting', meetingId);
    return m;
  }

  create(orgId: string, meetingId: string, input: { name?: string | null }): Livestream {
    this.meeting(orgId, meetingId);
    // Emulator decision: one active livestream per meeting; a second one is a conflict.
    if (this.activeFor(orgId, meetingId)) throw errors.conflict(`Meeting ${meetingId} already has an active livestream`);
    const now = this.ctx.clock.now();
    const livestream: Livestream = {
      id: this.ctx.ids.uuid(),
      orgId,
      meetingId,
      state: 'OFFLINE',
      name: input.name ?? null,
      streamKey: this.ctx.ids.token(32),
      disabled: false,
      createdAt: now,
      updatedAt: now,
      liveMs: 0,
      liveSince: null,
      stoppedAt: null,
    };
    orgData(this.ctx, orgId).putLivestream(livestream);
    this.publish(livestream, null, now);
    return livestream;
  }

  get(orgId: string, id: string): Livestream {
    const l = orgData(this.ctx, orgId).livestreams.get(id);
    if (!l) throw errors.notFound('livestream', id);
    return l;
  }

  /** Finds a livestream by id in whichever organization holds it (control API, media routes). */
  locate(id: string): Livestream {
    const l = this.ctx.store.findInAnyOrg((d) => d.livestreams, id);
    if (!l) throw errors.notFound('livestream', id);
    return l;
  }

  /** Every livestream, in any organization, in one of `states` (simulator re-arm). */
  allInState(states: readonly LivestreamState[]): Livestream[] {
    return this.ctx.store.allInAnyOrg(
      (d) => ({ order: d.livestreamOrder, items: d.livestreams }),
      (l) => states.includes(l.state),
    );
  }

  activeFor(orgId: string, meetingId: string): Livestream | undefined {
    const data = orgData(this.ctx, orgId);
    const ids = data.livestreamsByMeeting.get(meetingId) ?? [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const l = data.livestreams.get(ids[i]!);
      if (l && ACTIVE_LIVESTREAM_STATES.includes(l.state)) return l;
    }
    return undefined;
  }

  active(orgId: string, meetingId: string): Livestream {
    this.meeting(orgId, meetingId);
    const l = this.activeFor(orgId, meetingId);
    if (!l) throw errors.notFoundMessage(`No active livestream found for meeting ${meetingId}`);
    return l;
  }

  stopActive(orgId: string, meetingId: string): Livestream {
    const l = this.active(orgId, meetingId);
    return this.apply(l, { type: 'STOP' });
  }

  /** Newest first. */
  list(orgId: string, page: PageRequest): Page<Livestream> {
    const data = orgData(this.ctx, orgId);
    return paginate(data.livestreamOrder, (id) => data.livestreams.get(id), page, { newestFirst: true });
  }

  listForMeeting(orgId: string, meetingId: string, page: PageRequest): Page<Livestream> {
    this.meeting(orgId, meetingId);
    const data = orgData(this.ctx, orgId);
    return paginate(data.livestreamsByMeeting.get(meetingId) ?? [], (id) => data.livestreams.get(id), page, { newestFirst: true });
  }

  /** Ingest became active: OFFLINE → LIVE (simulator). */
  goLive(orgId: string, id: string): Livestream {
    return this.apply(this.get(orgId, id), { type: 'GO_LIVE' });
  }

  fail(orgId: string, id: string): Livestream {
    return this.apply(this.get(orgId, id), { type: 'FAIL' });
  }

  /** Forced transition (control API) through the same table. */
  force(orgId: string, id: string, to: LivestreamWireStatus): Livestream {
    const l = this.get(orgId, id);
    const type = livestreamEventFor(l.state, to);
    if (!type) throw errors.conflict(`Cannot move a livestream from ${l.state === 'STOPPED' ? 'OFFLINE (stopped)' : l.state} to ${to}`);
    return this.apply(l, { type });
  }

  private apply(l: Livestream, event: LivestreamEvent): Livestream {
    const now = this.ctx.clock.now();
    const result = transitionLivestream(l, event, now);
    if (!result.ok) throw errors.conflict(`Cannot ${event.type.toLowerCase().replace('_', ' ')} a livestream that is ${l.state}`);
    orgData(this.ctx, l.orgId).putLivestream(result.entity);
    this.publish(result.entity, l.state, now);
    return result.entity;
  }

  private publish(livestream: Livestream, previous: LivestreamState | null, at: number): void {
    const data = orgData(this.ctx, livestream.orgId);
    this.ctx.bus.publish({
      type: 'livestream.statusChanged',
      at,
      org: data.org,
      meeting: this.meeting(livestream.orgId, livestream.meetingId),
      livestream,
      previous,
    });
  }

  /** The livestreams a state document holds for the organization, as saved (OrgMember). */
  seedOrg(data: OrgData, fixtureOrg: FixtureOrg): void {
    for (const item of fixtureOrg.livestreams ?? []) data.putLivestream(structuredClone(item));
  }
}
