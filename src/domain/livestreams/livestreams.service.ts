import { errors } from '../../core/errors.js';
import { orgData, type DomainContext } from '../context.js';
import type { Livestream, LivestreamSession, LivestreamState, LivestreamWireStatus, Meeting } from '../models.js';
import { paginate, type Page, type PageRequest } from '../paging.js';
import { ACTIVE_LIVESTREAM_STATES, livestreamEventFor, transitionLivestream, wireStatus, type LivestreamEvent } from './livestream-machine.js';
import type { OrgData } from '../../store/store.js';
import { LivestreamViewers, sessionViewerSeconds, type ViewerFigure } from './livestream-viewers.js';
import type { FixtureOrg, OrgMember } from '../organizations/org-member.js';

/** The err_message of a livestream session whose ingest failed. */
export const INGEST_FAILED = 'Ingest failed';

export interface LivestreamListQuery extends PageRequest {
  /** Keep only livestreams with this status on the wire. */
  status?: string;
  /** Keep only livestreams of their own (no meeting). */
  excludeMeetings?: boolean;
  /** Creation time bounds, inclusive. */
  startTime?: number;
  endTime?: number;
  /** Oldest first; newest first otherwise. */
  ascending?: boolean;
}

/** A livestream with the session it is in now, or its last one (absent before it first went LIVE). */
export interface LivestreamWithSession {
  livestream: Livestream;
  session: LivestreamSession | undefined;
}

export class LivestreamsService implements OrgMember {
  /** The HLS clients watching each livestream session (in memory: a reset drops them). */
  readonly viewers = new LivestreamViewers();

  constructor(private readonly ctx: DomainContext) {}

  resetOrg(orgId: string): void {
    this.viewers.resetOrg(orgId);
  }

  /** A livestream's viewer seconds over all its sessions: what its HLS clients watched, else the simulator's audience. */
  viewerSecondsOf(l: Livestream, now: number, figure: ViewerFigure): number {
    const data = orgData(this.ctx, l.orgId);
    let total = 0;
    for (const sid of data.livestreamSessionsByLivestream.get(l.id) ?? []) {
      const s = data.livestreamSessions.get(sid);
      if (s) total += sessionViewerSeconds(s, now, figure);
    }
    return total;
  }

  /** An HLS client fetched a livestream's playlist: it watches the session LIVE now. */
  watched(l: Livestream, client: string): void {
    const session = lastSessionOf(orgData(this.ctx, l.orgId), l.id);
    if (session && session.stoppedTime === null) this.viewers.seen(session, client, this.ctx.clock.now());
  }

  /** The ingest ended without a stop (the encoder disconnected, the room's picture stopped): LIVE → IDLE. */
  endIngest(orgId: string, id: string): Livestream {
    return this.apply(this.get(orgId, id), { type: 'END_INGEST' });
  }

  /** A livestream by its stream key, in whichever organization holds it (an encoder's push names only the key). */
  byStreamKey(key: string): Livestream | undefined {
    for (const orgId of this.ctx.store.orgs.keys()) {
      const data = orgData(this.ctx, orgId);
      for (const l of data.livestreams.values()) if (l.streamKey === key) return l;
    }
    return undefined;
  }

  private meeting(orgId: string, meetingId: string): Meeting {
    const m = orgData(this.ctx, orgId).meetings.get(meetingId);
    if (!m) throw errors.notFound('meeting', meetingId);
    return m;
  }

  /** Start livestreaming a meeting. */
  create(orgId: string, meetingId: string, input: { name?: string | null }): Livestream {
    this.meeting(orgId, meetingId);
    // Emulator decision: one active livestream per meeting; a second one is a conflict.
    if (this.activeFor(orgId, meetingId)) throw errors.conflict(`Meeting ${meetingId} already has an active livestream`);
    return this.insert(orgId, meetingId, input.name ?? null);
  }

  /** A livestream of its own, fed by any RTMP encoder (POST /v2/livestreams). */
  createIndependent(orgId: string, input: { name?: string | null }): Livestream {
    return this.insert(orgId, null, input.name ?? null);
  }

  private insert(orgId: string, meetingId: string | null, name: string | null): Livestream {
    const data = orgData(this.ctx, orgId);
    const now = this.ctx.clock.now();
    const livestream: Livestream = {
      id: this.ctx.ids.uuid(),
      orgId,
      meetingId,
      state: 'OFFLINE',
      name,
      streamKey: this.ctx.ids.token(32),
      disabled: false,
      createdAt: now,
      updatedAt: now,
      liveMs: 0,
      liveSince: null,
      stoppedAt: null,
    };
    data.putLivestream(livestream);
    this.publish(livestream, null, now);
    return livestream;
  }

  get(orgId: string, id: string): Livestream {
    const l = orgData(this.ctx, orgId).livestreams.get(id);
    if (!l) throw errors.notFound('livestream', id);
    return l;
  }

  /** A livestream of the organization, or undefined (its organization's reset took it). */
  find(orgId: string, id: string): Livestream | undefined {
    return this.ctx.store.org(orgId)?.livestreams.get(id);
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
    // Stryker disable next-line ArrayDeclaration: the made-up id names no livestream, and the walk skips it.
    const ids = data.livestreamsByMeeting.get(meetingId) ?? [];
    // Stryker disable next-line ArithmeticOperator: the two extra indexes past the end hold no livestream and are skipped.
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

  list(orgId: string, q: LivestreamListQuery): Page<Livestream> {
    const data = orgData(this.ctx, orgId);
    // Stryker disable next-line ConditionalExpression: without filters every livestream matches, so the filtering walk gives the same page, only slower.
    const filtered = q.status !== undefined || q.excludeMeetings === true || q.startTime !== undefined || q.endTime !== undefined;
    return paginate(data.livestreamOrder, (id) => data.livestreams.get(id), q, {
      newestFirst: q.ascending !== true,
      filter: filtered
        ? (l) =>
            (q.status === undefined || wireStatus(l.state) === q.status) &&
            (q.excludeMeetings !== true || l.meetingId === null) &&
            (q.startTime === undefined || l.createdAt >= q.startTime) &&
            (q.endTime === undefined || l.createdAt <= q.endTime)
        : undefined,
    });
  }

  /** Newest first. */
  listForMeeting(orgId: string, meetingId: string, page: PageRequest): Page<Livestream> {
    this.meeting(orgId, meetingId);
    const data = orgData(this.ctx, orgId);
    return paginate(data.livestreamsByMeeting.get(meetingId) ?? [], (id) => data.livestreams.get(id), page, { newestFirst: true });
  }

  /** Ingest became active: OFFLINE or IDLE → LIVE (simulator, control API). A disabled livestream takes no ingest. */
  goLive(orgId: string, id: string): Livestream {
    const l = this.get(orgId, id);
    if (l.disabled) throw errors.conflict(`Livestream ${id} is disabled`);
    return this.apply(l, { type: 'GO_LIVE' });
  }

  fail(orgId: string, id: string, reason: string = INGEST_FAILED): Livestream {
    return this.apply(this.get(orgId, id), { type: 'FAIL' }, reason);
  }

  /** Forced transition (control API) through the same table. */
  force(orgId: string, id: string, to: LivestreamWireStatus): Livestream {
    const l = this.get(orgId, id);
    const type = livestreamEventFor(l.state, to);
    if (!type) throw errors.conflict(`Cannot move a livestream from ${l.state === 'STOPPED' ? 'OFFLINE (stopped)' : l.state} to ${to}`);
    if (type === 'GO_LIVE') return this.goLive(orgId, id);
    return this.apply(l, { type }, INGEST_FAILED);
  }

  /**
   * Disabled, a livestream takes no ingest: a LIVE one goes IDLE (its session ends) and none goes
   * LIVE until it is enabled again.
   */
  disable(orgId: string, id: string): Livestream {
    const l = this.setDisabled(this.get(orgId, id), true);
    return l.state === 'LIVE' ? this.apply(l, { type: 'END_INGEST' }) : l;
  }

  enable(orgId: string, id: string): Livestream {
    const before = this.get(orgId, id);
    const l = this.setDisabled(before, false);
    if (before.disabled) this.ctx.bus.publish({ type: 'livestream.enabled', at: l.updatedAt, org: orgData(this.ctx, orgId).org, livestream: l });
    return l;
  }

  private setDisabled(l: Livestream, disabled: boolean): Livestream {
    if (l.disabled === disabled) return l;
    const next: Livestream = { ...l, disabled, updatedAt: this.ctx.clock.now() };
    orgData(this.ctx, l.orgId).putLivestream(next);
    return next;
  }

  /**
   * A new stream key. Emulator decision: an ingest already running goes on (the key is checked
   * when an encoder connects); the next connection needs the new key.
   */
  resetStreamKey(orgId: string, id: string): Livestream {
    const l = this.get(orgId, id);
    const next: Livestream = { ...l, streamKey: this.ctx.ids.token(32), updatedAt: this.ctx.clock.now() };
    orgData(this.ctx, orgId).putLivestream(next);
    return next;
  }

  // --- livestream sessions ------------------------------------------------------------------

  /** The livestream with its current or last session. */
  withSession(orgId: string, id: string): LivestreamWithSession {
    const livestream = this.get(orgId, id);
    return { livestream, session: lastSessionOf(orgData(this.ctx, orgId), id) };
  }

  /** The livestream with the session it is LIVE in; 404 while it is not LIVE. */
  activeSession(orgId: string, id: string): LivestreamWithSession & { session: LivestreamSession } {
    const { livestream, session } = this.withSession(orgId, id);
    if (!session || session.stoppedTime !== null) throw errors.notFoundMessage(`No active livestream session found for livestream ${id}`);
    return { livestream, session };
  }

  /** A livestream's sessions, newest first. */
  sessionsOf(orgId: string, id: string, page: PageRequest): Page<LivestreamSession> {
    this.get(orgId, id);
    const data = orgData(this.ctx, orgId);
    return paginate(data.livestreamSessionsByLivestream.get(id) ?? [], (sid) => data.livestreamSessions.get(sid), page, { newestFirst: true });
  }

  /**
   * The newest session of any of the livestreams: the one that started last, and of two that
   * started at the same instant the one that went live second, whatever the page's order.
   */
  latestSessionOf(orgId: string, livestreams: readonly Livestream[]): LivestreamSession | undefined {
    const data = orgData(this.ctx, orgId);
    const ids = new Set(livestreams.map((l) => l.id));
    // The organization's sessions are held in the order they started (an import checks it).
    for (let i = data.livestreamSessionOrder.length - 1; i >= 0; i--) {
      const s = data.livestreamSessions.get(data.livestreamSessionOrder[i]!)!;
      if (ids.has(s.livestreamId)) return s;
    }
    return undefined;
  }

  getSession(orgId: string, sessionId: string): LivestreamSession {
    const s = orgData(this.ctx, orgId).livestreamSessions.get(sessionId);
    if (!s) throw errors.notFoundMessage(`No livestream session found with id ${sessionId}`);
    return s;
  }

  /**
   * The livestream sessions that ran while the meeting session was on, newest first. A session
   * is known when a meeting of the organization has it as its current or last session, or when
   * a livestream session names it.
   */
  sessionsDuringMeetingSession(orgId: string, meetingSessionId: string, page: PageRequest): Page<LivestreamSession> {
    const data = orgData(this.ctx, orgId);
    const found = paginate(data.livestreamSessionOrder, (sid) => data.livestreamSessions.get(sid), page, {
      newestFirst: true,
      filter: (s) => s.meetingSessionId === meetingSessionId,
    });
    if (found.total === 0 && ![...data.meetings.values()].some((m) => m.session?.id === meetingSessionId))
      throw errors.notFoundMessage(`No session found with id ${meetingSessionId}`);
    return found;
  }

  /** Every session of the organization that started within [from, to] (either bound open), in start order. */
  sessionsStartedBetween(orgId: string, from: number | undefined, to: number | undefined): LivestreamSession[] {
    const data = orgData(this.ctx, orgId);
    const out: LivestreamSession[] = [];
    for (const sid of data.livestreamSessionOrder) {
      const s = data.livestreamSessions.get(sid)!;
      if ((from === undefined || s.startedTime >= from) && (to === undefined || s.startedTime <= to)) out.push(s);
    }
    return out;
  }

  private apply(l: Livestream, event: LivestreamEvent, errMessage: string | null = null): Livestream {
    const now = this.ctx.clock.now();
    const result = transitionLivestream(l, event, now);
    // Stryker disable next-line StringLiteral,MethodExpression: never thrown: every caller applies only an event the transition table accepts for the current state.
    if (!result.ok) throw errors.conflict(`Cannot ${event.type.toLowerCase().replace('_', ' ')} a livestream that is ${l.state}`);
    const data = orgData(this.ctx, l.orgId);
    data.putLivestream(result.entity);
    if (result.entity.state === 'LIVE') this.openSession(data, result.entity, now);
    else if (l.state === 'LIVE') this.closeSession(data, l.id, now, event.type === 'FAIL' ? errMessage : null);
    this.publish(result.entity, l.state, now);
    return result.entity;
  }

  /** Each period a livestream is LIVE is a livestream session. */
  private openSession(data: OrgData, l: Livestream, now: number): void {
    const first = !data.livestreamSessionsByLivestream.has(l.id);
    const meetingSession = l.meetingId === null ? null : (data.meetings.get(l.meetingId)?.session ?? null);
    data.putLivestreamSession({
      id: this.ctx.ids.uuid(),
      orgId: l.orgId,
      livestreamId: l.id,
      meetingSessionId: meetingSession && meetingSession.endedAt === null ? meetingSession.id : null,
      // A meeting's livestream is asked for by an API call; an encoder's ingest is not.
      invokedTime: first && l.meetingId !== null ? l.createdAt : null,
      startedTime: now,
      stoppedTime: null,
      errMessage: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  private closeSession(data: OrgData, livestreamId: string, now: number, errMessage: string | null): void {
    const open = lastSessionOf(data, livestreamId);
    // Stryker disable next-line ConditionalExpression: closeSession is only called for a livestream that was LIVE, whose last session is open.
    if (open && open.stoppedTime === null) data.putLivestreamSession({ ...open, stoppedTime: now, errMessage, updatedAt: now });
  }

  private publish(livestream: Livestream, previous: LivestreamState | null, at: number): void {
    const data = orgData(this.ctx, livestream.orgId);
    this.ctx.bus.publish({
      type: 'livestream.statusChanged',
      at,
      org: data.org,
      meeting: livestream.meetingId === null ? null : this.meeting(livestream.orgId, livestream.meetingId),
      livestream,
      previous,
    });
  }

  /** The livestreams and their sessions a state document holds for the organization, as saved (OrgMember). */
  seedOrg(data: OrgData, fixtureOrg: FixtureOrg): void {
    for (const item of fixtureOrg.livestreams ?? []) data.putLivestream(structuredClone(item));
    for (const item of fixtureOrg.livestream_sessions ?? []) data.putLivestreamSession(structuredClone(item));
  }
}

function lastSessionOf(data: OrgData, livestreamId: string): LivestreamSession | undefined {
  const ids = data.livestreamSessionsByLivestream.get(livestreamId);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: for an empty list ids[-1] is undefined, and looking it up gives the same undefined.
  return ids && ids.length > 0 ? data.livestreamSessions.get(ids[ids.length - 1]!) : undefined;
}
