// Network trouble on demand: the scenarios a test sets on a meeting or on one participant in it
// (POST /_emulator/meetings/{id}[/participants/{pid}]/network, the in-process API, the dashboard),
// and what keeps the server's view true while a page's connection is in trouble.
//
// - signal-drop cuts a page's signalling socket without a close frame (the SDK reconnects by itself).
// - signal-outage cuts it and refuses every new socket of the participant (or the meeting) while it
//   lasts: the upgrade's connection is dropped, as an unreachable network would drop it.
// - media-drop cuts the paths of the page's media transports (the SDK builds new ones), or, for
//   some seconds, every path it tries meanwhile; a bot's clip stops reaching the viewers.
// - loss, latency and bandwidth shape the participant's media on the media plane, per direction.
// - clear ends what is in force; a scenario given seconds ends by itself on the emulator's clock.
//
// A page whose socket is lost (no close frame: a drop, an outage, a network that failed) is not
// gone at once: its participant stays in the meeting for RECONNECT_WINDOW_MS on the emulator's
// clock, as the others see them, and a page that comes back within it (the SDK reconnects as the
// same peer) takes its place without anyone hearing of a leave. When the window ends first, the
// participant leaves (meeting.participantLeft) at that moment; a page that returns later joins anew.
//
// Scenarios and the window's ends are jobs of the scheduler, so that they fall due in time order
// with everything else on any clock (an advance runs each at its own time). Nothing here survives a
// reset, an organization's reset or a state import.
import { toIso, type Clock } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import { defineJob, jobIdField } from '../../core/jobs.js';
import type { Scheduler } from '../../core/scheduler.js';
import type { EventBus } from '../../core/events.js';
import type { DomainEvent, NetworkChange } from '../../domain/events.js';
import type { Meeting, Organization, Participant } from '../../domain/models.js';
import type { Logger } from '../../logger.js';
import type { LinkConditions } from '../media/media-types.js';
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import {
  appliesTo,
  describe,
  linkOf,
  replaces,
  type LastingScenario,
  type LinkDirection,
  type Scenario,
  type ScenarioName,
  type ScenarioRequest,
} from './network-conditions.js';

/** How long a page whose socket was lost keeps its participant in the meeting (emulator ms). */
export const RECONNECT_WINDOW_MS = 60_000;

const SCENARIO_END = lazy(() =>
  defineJob({
    kind: 'network.scenarioEnd',
    payload: z.object({ orgId: jobIdField, meetingId: jobIdField, scenarioId: z.number().int().nonnegative() }).strict(),
    key: ({ scenarioId }: { scenarioId: number }) => `network:scenario:${scenarioId}`,
    orgId: (p) => p.orgId,
  }),
);

const RECONNECT_WINDOW_END = lazy(() =>
  defineJob({
    kind: 'network.reconnectWindowEnd',
    payload: z.object({ orgId: jobIdField, meetingId: jobIdField, participantId: jobIdField, peerId: jobIdField }).strict(),
    key: ({ meetingId, peerId }: { meetingId: string; peerId: string }) => `network:lost:${meetingId}:${peerId}`,
    orgId: (p) => p.orgId,
  }),
);

/** What the network scenarios ask of the rooms (rooms.ts and the media room), once the rooms exist. */
export interface NetworkRooms {
  /** Cuts the open sockets of a meeting's pages (or one participant's) without a close frame: how many. */
  cutSockets(meetingId: string, participantId: string | null): number;
  /** How a participant's pages stand: a socket open, one lost (reconnecting), or none. */
  connectionOf(meetingId: string, participantId: string): 'connected' | 'reconnecting' | 'none';
  /** The reconnect window of a lost page ended: its participant leaves unless another page of theirs is in. */
  windowEnded(meetingId: string, peerId: string): void;
  /** The participants of a meeting with a page or a scripted clip in its media room. */
  mediaParticipants(meetingId: string): string[];
  /** What carries a participant's media: a page's transports, a bot's clip, or nothing. */
  mediaOf(meetingId: string, participantId: string): 'page' | 'bot' | null;
  /** Shapes a participant's media anew (their link changed). */
  relink(meetingId: string, participantId: string): void;
  /** Cuts the paths of a participant's pages' transports (until each is replaced): their ids. */
  cutPaths(meetingId: string, participantId: string): string[];
  /** Lifts the cut of these transports (a cleared media-drop). */
  restorePaths(transportIds: readonly string[]): void;
}

export interface NetworkTroubleDeps {
  clock: Clock;
  scheduler: Scheduler;
  bus: EventBus<DomainEvent>;
  logger: Logger;
  locateMeeting(meetingId: string): Meeting;
  findParticipant(orgId: string, participantId: string): Participant | undefined;
  /** Who is in a meeting now. */
  presentIn(meetingId: string): Participant[];
  organization(orgId: string): Organization;
}

/** A participant as the network view names them, with their connection. */
export interface ParticipantNetwork {
  participant: Participant;
  connection: 'connected' | 'reconnecting' | 'none';
  /** While reconnecting: when they count as left unless a page comes back. */
  leavesAt: number | null;
  /** The scenarios that apply to them: the meeting's and their own. */
  scenarios: Scenario[];
  link: LinkConditions | null;
}

export interface NetworkView {
  meeting: Meeting;
  /** The meeting's own scenarios (for everyone in it). */
  scenarios: Scenario[];
  participants: ParticipantNetwork[];
}

export class NetworkTrouble {
  private scenarios: Scenario[] = [];
  private nextId = 1;
  private rooms: NetworkRooms | undefined;

  constructor(private readonly deps: NetworkTroubleDeps) {
    deps.scheduler.handle(SCENARIO_END(), ({ scenarioId }) => this.expire(scenarioId));
    deps.scheduler.handle(RECONNECT_WINDOW_END(), ({ meetingId, peerId }) => this.rooms?.windowEnded(meetingId, peerId));
  }

  /** The rooms, once the first socket loaded them. */
  attach(rooms: NetworkRooms): void {
    this.rooms = rooms;
  }

  reset(): void {
    this.scenarios = [];
    this.nextId = 1;
  }

  resetOrg(orgId: string): void {
    this.scenarios = this.scenarios.filter((s) => s.orgId !== orgId);
  }

  // --- what the control API asks -----------------------------------------------------------------

  /** Sets a scenario on a meeting (participantId null) or a participant of it; answers the view afterwards. Refused (4xx) with nothing applied. */
  apply(meetingId: string, participantId: string | null, request: ScenarioRequest): NetworkView {
    const { meeting, participant } = this.target(meetingId, participantId);
    const name = request.scenario;
    if (name === 'clear') this.clear(meeting, participant);
    else if (name === 'signal-drop') this.signalDrop(meeting, participant);
    else this.start(meeting, participant, name, request);
    return this.view(meeting.id, participantId);
  }

  view(meetingId: string, participantId: string | null): NetworkView {
    const { meeting, participant } = this.target(meetingId, participantId);
    const own = this.scenarios.filter((s) => s.meetingId === meeting.id && s.participantId === null);
    let who: Participant[];
    if (participant) who = [participant];
    else {
      const ids = new Set([
        ...this.scenarios.filter((s) => s.meetingId === meeting.id && s.participantId !== null).map((s) => s.participantId!),
        ...(this.rooms?.mediaParticipants(meeting.id) ?? []),
      ]);
      who = this.deps.presentIn(meeting.id);
      for (const id of ids) {
        const p = this.deps.findParticipant(meeting.orgId, id);
        if (p && p.meetingId === meeting.id && !who.some((w) => w.id === p.id)) who.push(p);
      }
    }
    return { meeting, scenarios: own, participants: who.map((p) => this.participantView(meeting, p)) };
  }

  /** Whether a new socket of this participant is refused: an outage is in force for them or their meeting. */
  refuses(meetingId: string, participantId: string): boolean {
    return this.scenarios.some((s) => s.name === 'signal-outage' && s.meetingId === meetingId && appliesTo(s, participantId));
  }

  /** The link a participant's media goes through now (null: a clear network). */
  linkOf(meetingId: string, participantId: string): LinkConditions | null {
    return linkOf(this.scenarios.filter((s) => s.meetingId === meetingId && appliesTo(s, participantId)));
  }

  // --- what the rooms tell ----------------------------------------------------------------------

  /** A page's socket was lost: its participant stays for the reconnect window; answers when it ends. */
  pageLost(meeting: Meeting, participant: Participant, peerId: string): number {
    // One reading of the clock: on a fast real clock two readings a millisecond apart are many
    // emulated ones, and the loss's time must be the window's start.
    const now = this.deps.clock.now();
    const at = now + RECONNECT_WINDOW_MS;
    this.deps.scheduler.schedule(RECONNECT_WINDOW_END(), { orgId: meeting.orgId, meetingId: meeting.id, participantId: participant.id, peerId }, at);
    this.tell(meeting, participant, 'lost', null, `reconnecting until ${toIso(at)}`, now);
    return at;
  }

  /** A lost page is back (its SDK reconnected as the same peer within the window). */
  pageReturned(meeting: Meeting, participant: Participant, peerId: string): void {
    this.deps.scheduler.cancel(RECONNECT_WINDOW_END(), { meetingId: meeting.id, peerId });
    this.tell(meeting, participant, 'returned', null, null);
  }

  /** A lost page is gone for good (its window ended, or its participant left meanwhile): its window's end is off. */
  pageForgotten(meetingId: string, peerId: string): void {
    this.deps.scheduler.cancel(RECONNECT_WINDOW_END(), { meetingId, peerId });
  }

  /** When a lost page's window ends (null when it is not waiting for one). */
  windowEndOf(meetingId: string, peerId: string): number | null {
    return this.deps.scheduler.get(RECONNECT_WINDOW_END(), { meetingId, peerId })?.at ?? null;
  }

  /** A transport cut by a media-drop was replaced (or its page restarted ICE): a drop whose paths are all new again has ended. */
  pathRecovered(transportId: string): void {
    for (const s of [...this.scenarios]) {
      if (s.cut?.mode !== 'path' || !s.cut.transports.delete(transportId) || s.cut.transports.size > 0) continue;
      this.end(s, 'recovered');
    }
  }

  // --- the scenarios ------------------------------------------------------------------------------

  private target(meetingId: string, participantId: string | null): { meeting: Meeting; participant: Participant | null } {
    const meeting = this.deps.locateMeeting(meetingId);
    if (participantId === null) return { meeting, participant: null };
    const participant = this.deps.findParticipant(meeting.orgId, participantId);
    if (!participant || participant.meetingId !== meeting.id) throw errors.notFoundMessage(`No participant ${participantId} in meeting ${meeting.id}`);
    return { meeting, participant };
  }

  private signalDrop(meeting: Meeting, participant: Participant | null): void {
    const cut = this.rooms?.cutSockets(meeting.id, participant?.id ?? null) ?? 0;
    if (cut === 0)
      throw errors.conflict(
        participant
          ? `Participant ${participant.id} has no page connected to meeting ${meeting.id}: there is no socket to drop (a scripted participant has none)`
          : `No page is connected to meeting ${meeting.id}: there is no socket to drop`,
        'NO_PAGE',
      );
    this.deps.logger.info({ meeting: meeting.id, participant: participant?.id ?? null, sockets: cut }, 'network: signalling sockets dropped');
    this.tell(meeting, participant, 'applied', 'signal-drop', `${cut} socket${cut === 1 ? '' : 's'} dropped`);
  }

  private start(meeting: Meeting, participant: Participant | null, name: LastingScenario, request: ScenarioRequest): void {
    const seconds = request.seconds ?? null;
    const direction: LinkDirection | null = name === 'loss' || name === 'latency' || name === 'bandwidth' ? (request.direction ?? 'both') : null;
    const value = name === 'loss' ? request.percent! : name === 'latency' ? request.ms! : name === 'bandwidth' ? request.kbps! : null;
    const now = this.deps.clock.now();
    const scenario: Scenario = {
      id: this.nextId,
      orgId: meeting.orgId,
      meetingId: meeting.id,
      participantId: participant?.id ?? null,
      name,
      direction,
      value,
      seconds,
      startedAt: now,
      endsAt: seconds === null ? null : now + seconds * 1000,
    };
    if (name === 'media-drop') scenario.cut = this.mediaCut(meeting, participant, seconds);
    // Checked and made: from here on it applies.
    this.nextId++;
    for (const old of this.scenarios.filter((s) => s.meetingId === meeting.id && replaces(scenario, s))) this.end(old, null);
    this.scenarios.push(scenario);
    if (scenario.endsAt !== null)
      this.deps.scheduler.schedule(SCENARIO_END(), { orgId: meeting.orgId, meetingId: meeting.id, scenarioId: scenario.id }, scenario.endsAt);
    this.relink(scenario);
    let cut = 0;
    if (name === 'signal-outage') cut = this.rooms?.cutSockets(meeting.id, participant?.id ?? null) ?? 0;
    this.deps.logger.info({ meeting: meeting.id, participant: participant?.id ?? null, scenario: describe(scenario) }, 'network: scenario set');
    this.tell(meeting, participant, 'applied', name, describe(scenario) + (name === 'signal-outage' ? ` (${cut} socket${cut === 1 ? '' : 's'} dropped)` : ''));
  }

  /** How a media-drop cuts: the pages' current paths (until rebuilt), or every path for its seconds; refused when no media flows. */
  private mediaCut(meeting: Meeting, participant: Participant | null, seconds: number | null): Scenario['cut'] {
    const rooms = this.rooms;
    const whom = participant ? [participant.id] : (rooms?.mediaParticipants(meeting.id) ?? []);
    const carriers = whom.map((id) => rooms?.mediaOf(meeting.id, id) ?? null);
    if (!carriers.some((c) => c !== null))
      throw errors.conflict(
        participant
          ? `Participant ${participant.id} sends and receives no media in meeting ${meeting.id}: there is nothing to drop`
          : `Nobody sends or receives media in meeting ${meeting.id}: there is nothing to drop`,
        'NO_MEDIA',
      );
    // A bot's clip has no path of its own to rebuild: it stays cut until the drop ends.
    if (seconds !== null || (participant && carriers[0] === 'bot')) return { mode: 'all' };
    const transports = new Set<string>();
    for (const [i, id] of whom.entries()) if (carriers[i] === 'page') for (const t of rooms!.cutPaths(meeting.id, id)) transports.add(t);
    return { mode: 'path', transports };
  }

  private clear(meeting: Meeting, participant: Participant | null): void {
    // The meeting's clear ends everything in it; a participant's, their own.
    const ending = this.scenarios.filter((s) => s.meetingId === meeting.id && (participant === null || s.participantId === participant.id));
    for (const s of ending) this.end(s, 'cleared');
    this.tell(meeting, participant, 'applied', 'clear', ending.length === 0 ? 'nothing was in force' : `${ending.length} ended`);
  }

  private expire(scenarioId: number): void {
    const s = this.scenarios.find((x) => x.id === scenarioId);
    if (s) this.end(s, 'expired');
  }

  /** Ends a scenario and undoes what it does; told unless another takes its place (`why` null). */
  private end(s: Scenario, why: 'cleared' | 'expired' | 'recovered' | null): void {
    const i = this.scenarios.indexOf(s);
    if (i < 0) return;
    this.scenarios.splice(i, 1);
    this.deps.scheduler.cancel(SCENARIO_END(), { scenarioId: s.id });
    if (s.cut?.mode === 'path' && s.cut.transports.size > 0) this.rooms?.restorePaths([...s.cut.transports]);
    this.relink(s);
    if (why === null) return;
    let meeting: Meeting;
    try {
      meeting = this.deps.locateMeeting(s.meetingId);
    } catch {
      return;
    }
    const participant = s.participantId === null ? null : (this.deps.findParticipant(s.orgId, s.participantId) ?? null);
    this.tell(meeting, participant, 'ended', s.name, `${describe(s)} ${why}`);
  }

  /** Tells the media room whose link a scenario changes. */
  private relink(s: Scenario): void {
    if (!this.rooms || s.name === 'signal-outage') return;
    const whom = s.participantId !== null ? [s.participantId] : this.rooms.mediaParticipants(s.meetingId);
    for (const id of whom) this.rooms.relink(s.meetingId, id);
  }

  private participantView(meeting: Meeting, p: Participant): ParticipantNetwork {
    const connection = this.rooms?.connectionOf(meeting.id, p.id) ?? 'none';
    const leavesAt =
      connection === 'reconnecting'
        ? (this.deps.scheduler
            .list()
            .filter((j) => j.kind === RECONNECT_WINDOW_END().kind && j.payload.meetingId === meeting.id && j.payload.participantId === p.id)
            .map((j) => j.at)
            .sort((a, b) => a - b)
            .pop() ?? null)
        : null;
    return {
      participant: p,
      connection,
      leavesAt,
      scenarios: this.scenarios.filter((s) => s.meetingId === meeting.id && appliesTo(s, p.id)),
      link: this.linkOf(meeting.id, p.id),
    };
  }

  private tell(
    meeting: Meeting,
    participant: Participant | null,
    change: NetworkChange,
    scenario: ScenarioName | null,
    detail: string | null,
    at = this.deps.clock.now(),
  ): void {
    this.deps.bus.publish({
      type: 'network.changed',
      at,
      org: this.deps.organization(meeting.orgId),
      meeting,
      participant,
      change,
      scenario,
      detail,
    });
  }
}
