// The waiting room: a meeting created with `waiting_room: true` holds back the participants whose
// preset says they wait (permissions.waiting_room_type), until someone whose preset may accept
// waiting requests (permissions.accept_waiting_requests) admits or rejects them. A page and a
// scripted participant wait alike; joining, once admitted, is the ordinary join (sessions.join:
// the session, participantJoined, record_on_start), so nothing records a participant who waited
// until they are in. Production's session history and webhooks name nobody who only waited.
//
// Emulator decisions (production's reference names the types and nothing more):
// - SKIP: never waits. SKIP_ON_ACCEPT: waits on every join until admitted or rejected.
//   ON_PRIVILEGED_USER_ENTRY: waits while nobody who may admit is in the meeting, joins at once
//   while someone is, and is let in when such a one joins (they may also admit or reject first).
// - A page that is admitted joins by itself (the SDK joins again when it hears it was accepted):
//   it holds a pass for that one join. A scripted participant admitted is joined at once.
// - The list is the meeting's, not the session's: people may wait before anyone opened a session.
//   It lives in memory (not in state exports); a reset or the organization's reset empties it.
import { errors } from '../../core/errors.js';
import { orgData, type DomainContext } from '../context.js';
import type { WaitingChange } from '../events.js';
import type { Meeting, Participant, Preset } from '../models.js';
import type { SessionsService } from './sessions.service.js';

/** How a participant waits: through a page of the web SDK, or scripted (the control API). */
export type WaitingVia = 'page' | 'scripted';

export interface WaitingEntry {
  participant: Participant;
  /** When they started waiting (ms). */
  since: number;
  via: WaitingVia;
}

interface Waiting {
  participantId: string;
  since: number;
  via: WaitingVia;
}

interface Room {
  orgId: string;
  /** Who waits, in the order they arrived. */
  waiting: Waiting[];
  /** Admitted pages' participants, whose next join skips the waiting room once. */
  passes: Set<string>;
}

export class WaitingRoomService {
  /** Meeting id → its waiting room. */
  private readonly rooms = new Map<string, Room>();

  constructor(
    private readonly ctx: DomainContext,
    private readonly sessions: Pick<SessionsService, 'join' | 'locateMeeting' | 'participant' | 'present'>,
  ) {}

  reset(): void {
    this.rooms.clear();
  }

  resetOrg(orgId: string): void {
    for (const [meetingId, room] of this.rooms) if (room.orgId === orgId) this.rooms.delete(meetingId);
  }

  /** Who waits in a meeting, in the order they arrived (participants deleted since are gone). */
  list(meetingId: string): WaitingEntry[] {
    const meeting = this.sessions.locateMeeting(meetingId);
    const data = orgData(this.ctx, meeting.orgId);
    const out: WaitingEntry[] = [];
    for (const w of this.rooms.get(meetingId)?.waiting ?? []) {
      const participant = data.participants.get(w.participantId);
      if (participant) out.push({ participant, since: w.since, via: w.via });
    }
    return out;
  }

  isWaiting(meetingId: string, participantId: string): boolean {
    return (this.rooms.get(meetingId)?.waiting ?? []).some((w) => w.participantId === participantId);
  }

  /**
   * A participant asks to join: they join (sessions.join), or wait. Someone who may admit and
   * joins lets in those who wait for such a one (ON_PRIVILEGED_USER_ENTRY).
   */
  enter(meetingId: string, participantId: string, via: WaitingVia): 'joined' | 'waiting' {
    const meeting = this.sessions.locateMeeting(meetingId);
    const participant = this.sessions.participant(meeting, participantId);
    if (meeting.status === 'INACTIVE') throw errors.conflict(`Meeting ${meeting.id} is INACTIVE; participants cannot join`);
    if (this.isWaiting(meeting.id, participant.id)) return 'waiting';
    const pass = this.rooms.get(meeting.id)?.passes.delete(participant.id) ?? false;
    // Stryker disable next-line ConditionalExpression: tidying only forgets an empty room's entry; no answer or event reads whether it is kept.
    if (pass) this.tidy(meeting.id);
    if (participant.joinedAt === null && !pass && this.mustWait(meeting, participant)) {
      this.room(meeting).waiting.push({ participantId: participant.id, since: this.ctx.clock.now(), via });
      this.publish(meeting, participant, 'waiting', null);
      return 'waiting';
    }
    this.sessions.join(meeting.id, participant.id);
    if (this.mayAdmit(meeting, participant)) {
      const held = this.list(meeting.id).filter((w) => this.presetOf(meeting, w.participant)?.permissions.waiting_room_type === 'ON_PRIVILEGED_USER_ENTRY');
      if (held.length > 0)
        this.admit(
          meeting.id,
          held.map((w) => w.participant.id),
          participant.id,
        );
    }
    return 'joined';
  }

  /** Admits who wait (all named, or none): a scripted participant joins now, a page joins when it asks again. */
  admit(meetingId: string, participantIds: string[], by: string | null): void {
    const { meeting, entries } = this.decide(meetingId, participantIds, by, 'admit');
    for (const w of entries) {
      this.remove(meeting.id, w.participantId);
      const participant = orgData(this.ctx, meeting.orgId).participants.get(w.participantId)!;
      if (w.via === 'page') this.room(meeting).passes.add(w.participantId);
      this.publish(meeting, participant, 'admitted', by);
      if (w.via === 'scripted') this.sessions.join(meeting.id, w.participantId);
    }
  }

  /** Whether a participant was admitted from a page and that page has not joined yet (its next join skips the waiting room). */
  holdsPass(meetingId: string, participantId: string): boolean {
    return this.rooms.get(meetingId)?.passes.has(participantId) ?? false;
  }

  /** An admitted page went away before it joined: its pass goes with it (a later join waits again). */
  dropPass(meetingId: string, participantId: string): void {
    if (this.rooms.get(meetingId)?.passes.delete(participantId)) this.tidy(meetingId);
  }

  /** Rejects who wait (all named, or none): they leave the waiting room without joining. */
  reject(meetingId: string, participantIds: string[], by: string | null): void {
    const { meeting, entries } = this.decide(meetingId, participantIds, by, 'reject');
    for (const w of entries) {
      this.remove(meeting.id, w.participantId);
      this.publish(meeting, orgData(this.ctx, meeting.orgId).participants.get(w.participantId)!, 'rejected', by);
    }
  }

  /** One who waits gives up (their page left, or the control API's leave). Whether they were waiting. */
  leave(meetingId: string, participantId: string): boolean {
    if (!this.isWaiting(meetingId, participantId)) return false;
    const meeting = this.sessions.locateMeeting(meetingId);
    this.remove(meetingId, participantId);
    const participant = orgData(this.ctx, meeting.orgId).participants.get(participantId);
    if (participant) this.publish(meeting, participant, 'left', null);
    return true;
  }

  /** Whether the participant's preset may see the waiting room and admit or reject. */
  mayAdmit(meeting: Meeting, participant: Participant): boolean {
    return this.presetOf(meeting, participant)?.permissions.accept_waiting_requests === true;
  }

  // --- rules ----------------------------------------------------------------------------------

  private mustWait(meeting: Meeting, participant: Participant): boolean {
    if (!meeting.waitingRoom) return false;
    const type = this.presetOf(meeting, participant)?.permissions.waiting_room_type ?? 'SKIP';
    if (type === 'SKIP') return false;
    if (type === 'SKIP_ON_ACCEPT') return true;
    return !this.sessions.present(meeting).some((p) => this.mayAdmit(meeting, p));
  }

  /** Checks a host's admission or rejection whole before anything changes: who acts, and that everyone named waits here. */
  private decide(meetingId: string, participantIds: string[], by: string | null, verb: 'admit' | 'reject') {
    const meeting = this.sessions.locateMeeting(meetingId);
    if (by !== null) {
      const host = this.sessions.participant(meeting, by);
      if (host.joinedAt === null) throw errors.conflict(`Participant ${host.id} is not in meeting ${meeting.id}; only someone in the meeting may ${verb}`);
      if (!this.mayAdmit(meeting, host)) {
        const preset = this.presetOf(meeting, host);
        throw errors.forbidden(`The preset ${preset?.name ?? '(none)'} may not ${verb} waiting participants (permissions.accept_waiting_requests is false)`);
      }
    }
    if (participantIds.length === 0) throw errors.badRequest(`Name at least one waiting participant to ${verb}`);
    if (verb === 'admit' && meeting.status === 'INACTIVE') throw errors.conflict(`Meeting ${meeting.id} is INACTIVE; participants cannot join`);
    const list = this.rooms.get(meeting.id)?.waiting ?? [];
    const entries: Waiting[] = [];
    for (const id of new Set(participantIds)) {
      const w = list.find((x) => x.participantId === id);
      if (!w || !orgData(this.ctx, meeting.orgId).participants.has(id)) throw errors.conflict(`Participant ${id} is not waiting in meeting ${meeting.id}`);
      entries.push(w);
    }
    return { meeting, entries };
  }

  private room(meeting: Meeting): Room {
    let room = this.rooms.get(meeting.id);
    if (!room) this.rooms.set(meeting.id, (room = { orgId: meeting.orgId, waiting: [], passes: new Set() }));
    return room;
  }

  private remove(meetingId: string, participantId: string): void {
    const room = this.rooms.get(meetingId);
    if (!room) return;
    room.waiting = room.waiting.filter((w) => w.participantId !== participantId);
    this.tidy(meetingId);
  }

  /** A waiting room with nobody waiting and no pass held is forgotten. */
  // Stryker disable next-line BlockStatement: an empty room's entry kept answers every read as a forgotten one does (memory only).
  private tidy(meetingId: string): void {
    const room = this.rooms.get(meetingId);
    if (room && room.waiting.length === 0 && room.passes.size === 0) this.rooms.delete(meetingId);
  }

  private publish(meeting: Meeting, participant: Participant, change: WaitingChange, by: string | null): void {
    const data = orgData(this.ctx, meeting.orgId);
    this.ctx.bus.publish({
      type: 'waitingRoom.changed',
      at: this.ctx.clock.now(),
      org: data.org,
      meeting: this.sessions.locateMeeting(meeting.id),
      participant,
      change,
      by,
    });
  }

  private presetOf(meeting: Meeting, participant: Participant): Preset | undefined {
    return orgData(this.ctx, meeting.orgId).presets.get(participant.presetId);
  }
}
