// Breakout rooms ("connected meetings", as the web SDKs call them): real meetings of the
// organization opened from a meeting (their parent), which the REST API lists like any other.
// A family is a parent and its open rooms; people move between the meetings of one family.
//
// A move names participants of the source meeting. Their participant in the destination is the
// same person (the same custom participant id, name, picture): the one the destination already
// has, or a new one with the source's preset (or the preset the move gives). A participant with
// a page is asked to move (the page leaves the source and joins the destination with a token
// for it, as the SDK does when the service transfers it); a scripted participant is moved at
// once (a leave of the source, a join of the destination). Either way the meetings see a leave
// and a join, with their webhooks.
//
// Emulator decisions (production documents none of this): a room copies only its parent's
// preferred region; a room opened without a title is "Room <n>"; closing a room moves whoever is
// still in it back to the parent first and then makes it INACTIVE (it stays in the REST API,
// with its sessions); rooms are opened from the family's parent even when asked from a room.
import { errors } from '../../core/errors.js';
import { orgData, type DomainContext } from '../context.js';
import type { BreakoutTransfer } from '../events.js';
import type { Meeting, Participant, Session } from '../models.js';
import type { OrgData } from '../../store/store.js';
import type { OrgMember } from '../organizations/org-member.js';
import type { MeetingsService } from './meetings.service.js';
import type { SessionsService } from './sessions.service.js';

/** Emulator limit: the open breakout rooms one meeting may have. */
export const MAX_BREAKOUT_ROOMS = 100;
/** A room's title, as a meeting's. */
export const BREAKOUT_TITLE_CHARS = 1024;

/** Who has a page (the realtime rooms): such a participant moves by itself once asked. */
export interface Frontends {
  hasPage(meetingId: string, participantId: string): boolean;
}

export interface MoveInput {
  participantId: string;
  /** The preset they get in the destination (the SDK's moveParticipantsWithCustomPreset). */
  presetId?: string;
}

export interface Family {
  parent: Meeting;
  /** The open rooms, in the order they were opened. */
  rooms: Meeting[];
}

export class ConnectedMeetingsService implements OrgMember {
  /** Participants asked to move who have not left their meeting yet → their organization and the meeting they are moving to. */
  private readonly moving = new Map<string, { orgId: string; to: string }>();
  private frontends: Frontends = { hasPage: () => false };

  constructor(
    private readonly ctx: DomainContext,
    private readonly meetings: Pick<MeetingsService, 'create'>,
    private readonly sessions: Pick<SessionsService, 'join' | 'leave' | 'locateMeeting' | 'present'>,
  ) {}

  /** The realtime rooms, once built (they are built after the domain). */
  attachFrontends(frontends: Frontends): void {
    this.frontends = frontends;
  }

  /** The family a meeting belongs to (as a parent, or as one of the rooms). */
  family(meetingId: string): Family {
    const meeting = this.sessions.locateMeeting(meetingId);
    const parent = meeting.parentMeetingId ? this.sessions.locateMeeting(meeting.parentMeetingId) : meeting;
    return { parent, rooms: this.roomsOf(parent, (m) => m.status === 'ACTIVE') };
  }

  /** Whether a meeting is a breakout room, or has ever opened one (its pages hear about its family). */
  inFamily(meeting: Meeting): boolean {
    return meeting.parentMeetingId !== undefined || this.roomsOf(meeting, () => true).length > 0;
  }

  /** Who is in a meeting now, in the order they were added to it. */
  present(meeting: Meeting): Participant[] {
    return this.sessions.present(meeting);
  }

  /** Opens rooms for the family of `meetingId`; `titles` holds one entry per room (undefined: "Room <n>"). */
  open(meetingId: string, titles: readonly (string | undefined)[]): Meeting[] {
    const { parent, rooms } = this.family(meetingId);
    if (titles.length === 0) throw errors.validation('open at least one breakout room');
    if (parent.status === 'INACTIVE') throw errors.conflict(`Meeting ${parent.id} is INACTIVE; it cannot open breakout rooms`);
    if (rooms.length + titles.length > MAX_BREAKOUT_ROOMS)
      throw errors.conflict(`Meeting ${parent.id} has ${rooms.length} open breakout rooms; at most ${MAX_BREAKOUT_ROOMS} may be open at once`);
    for (const t of titles) this.checkTitle(t);
    const data = orgData(this.ctx, parent.orgId);
    const opened = titles.map((title, i) => {
      const m = this.meetings.create(parent.orgId, { title: title ?? `Room ${rooms.length + i + 1}`, preferredRegion: parent.preferredRegion });
      const room: Meeting = { ...m, parentMeetingId: parent.id };
      data.putMeeting(room);
      return room;
    });
    this.announceRooms(data, parent, 'opened', opened);
    return opened;
  }

  /** Renames an open room of the family of `meetingId`. */
  rename(meetingId: string, roomId: string, title: string): Meeting {
    const { parent, rooms } = this.family(meetingId);
    const room = this.openRoom(parent, rooms, roomId);
    this.checkTitle(title);
    const data = orgData(this.ctx, parent.orgId);
    const renamed: Meeting = { ...room, title, updatedAt: this.ctx.clock.now() };
    data.putMeeting(renamed);
    this.announceRooms(data, parent, 'renamed', [renamed]);
    return renamed;
  }

  /**
   * Moves participants between two meetings of the family of `meetingId`. Every check comes
   * before any change: a bad request changes nothing.
   */
  move(meetingId: string, sourceId: string, destinationId: string, people: readonly MoveInput[]): BreakoutTransfer[] {
    const { parent, rooms } = this.family(meetingId);
    const members = [parent, ...rooms];
    const source = this.member(parent, members, sourceId);
    const destination = this.member(parent, members, destinationId);
    if (source.id === destination.id) throw errors.validation(`the source and the destination are the same meeting (${source.id})`);
    // A parent made INACTIVE over REST takes nobody back (its rooms stay open until it is ACTIVE again).
    if (destination.status !== 'ACTIVE') throw errors.conflict(`Meeting ${destination.id} is ${destination.status}; nobody can move into it`);
    if (people.length === 0) throw errors.validation('move at least one participant');
    const data = orgData(this.ctx, parent.orgId);
    const seen = new Set<string>();
    const moves = people.map(({ participantId, presetId }) => {
      if (seen.has(participantId)) throw errors.validation(`participant ${participantId} is named twice`);
      seen.add(participantId);
      const from = data.participants.get(participantId);
      if (!from || from.meetingId !== source.id || from.joinedAt === null) throw errors.conflict(`Participant ${participantId} is not in meeting ${source.id}`);
      const on = this.movingTo(data, participantId);
      if (on) throw errors.conflict(`Participant ${participantId} is already moving to meeting ${on}`);
      const preset = presetId === undefined ? undefined : data.presets.get(presetId);
      if (presetId !== undefined && !preset) throw errors.validation(`No preset found with id ${presetId}`);
      return { from, preset };
    });

    const now = this.ctx.clock.now();
    const transfers = moves.map(({ from, preset }): BreakoutTransfer => {
      const existing = (data.participantsByMeeting.get(destination.id) ?? [])
        .map((id) => data.participants.get(id))
        .find((p) => p?.customParticipantId === from.customParticipantId);
      const base: Participant = existing ?? {
        ...from,
        id: this.ctx.ids.uuid(),
        meetingId: destination.id,
        createdAt: now,
        joinedAt: null,
      };
      const to: Participant = preset ? { ...base, presetId: preset.id, presetName: preset.name, updatedAt: now } : base;
      if (to !== existing) data.putParticipant(to);
      return { from, to, byPage: this.frontends.hasPage(source.id, from.id) };
    });
    for (const t of transfers) {
      if (t.byPage) this.moving.set(t.from.id, { orgId: parent.orgId, to: destination.id });
      else {
        this.sessions.leave(source.id, t.from.id);
        if (t.to.joinedAt === null) t.to = this.sessions.join(destination.id, t.to.id).present.find((p) => p.id === t.to.id) ?? t.to;
      }
    }
    this.ctx.bus.publish({
      type: 'breakout.moved',
      at: now,
      org: data.org,
      meeting: this.sessions.locateMeeting(source.id),
      destination: this.sessions.locateMeeting(destination.id),
      transfers,
    });
    return transfers;
  }

  /** Closes open rooms of the family of `meetingId`: whoever is still in one goes back to the parent first. */
  close(meetingId: string, roomIds: readonly string[]): Meeting[] {
    const { parent, rooms } = this.family(meetingId);
    if (roomIds.length === 0) throw errors.validation('close at least one breakout room');
    if (new Set(roomIds).size !== roomIds.length) throw errors.validation('a breakout room is named twice');
    const closing = roomIds.map((id) => this.openRoom(parent, rooms, id));
    const data = orgData(this.ctx, parent.orgId);
    for (const room of closing) {
      const staying = this.present(room).filter((p) => !this.movingTo(data, p.id));
      if (staying.length > 0)
        this.move(
          parent.id,
          room.id,
          parent.id,
          staying.map((p) => ({ participantId: p.id })),
        );
    }
    const now = this.ctx.clock.now();
    const closed = closing.map((room) => {
      const m: Meeting = { ...this.sessions.locateMeeting(room.id), status: 'INACTIVE', updatedAt: now };
      data.putMeeting(m);
      return m;
    });
    this.announceRooms(data, this.sessions.locateMeeting(parent.id), 'closed', closed);
    return closed;
  }

  /**
   * The sessions of a meeting's breakout rooms (open or closed) that belong to one of its
   * sessions: those that started while it was the meeting's latest session (emulator decision:
   * a room's session belongs to the parent's session that last started before it).
   */
  breakoutSessions(session: Session): Session[] {
    const data = orgData(this.ctx, session.orgId);
    const parent = data.meetings.get(session.meetingId);
    if (!parent || parent.parentMeetingId) return [];
    const parentSessions = (data.sessionsByMeeting.get(parent.id) ?? []).map((id) => data.sessions.get(id)!);
    const next = parentSessions.filter((s) => s.startedAt > session.startedAt).reduce<number>((min, s) => Math.min(min, s.startedAt), Infinity);
    return this.roomsOf(parent, () => true)
      .flatMap((room) => (data.sessionsByMeeting.get(room.id) ?? []).map((id) => data.sessions.get(id)!))
      .filter((s) => s.startedAt >= session.startedAt && s.startedAt < next)
      .sort((a, b) => a.startedAt - b.startedAt);
  }

  /** Everything loaded afresh (a reset or an import): nobody is on the way anywhere. */
  reset(): void {
    this.moving.clear();
  }

  /** An organization loaded afresh (a load, an import, its reset): none of its participants is on the way anywhere. */
  seedOrg(data: OrgData): void {
    this.resetOrg(data.org.id);
  }

  resetOrg(orgId: string): void {
    for (const [id, m] of this.moving) if (m.orgId === orgId) this.moving.delete(id);
  }

  // --- helpers ----------------------------------------------------------------------------------

  private roomsOf(parent: Meeting, keep: (m: Meeting) => boolean): Meeting[] {
    const data = orgData(this.ctx, parent.orgId);
    return data.meetingOrder.flatMap((id) => {
      const m = data.meetings.get(id);
      return m && m.parentMeetingId === parent.id && keep(m) ? [m] : [];
    });
  }

  private member(parent: Meeting, members: Meeting[], id: string): Meeting {
    const found = members.find((m) => m.id === id);
    if (found) return found;
    throw errors.conflict(`Meeting ${id} is neither meeting ${parent.id} nor one of its open breakout rooms`);
  }

  private openRoom(parent: Meeting, rooms: Meeting[], id: string): Meeting {
    const found = rooms.find((m) => m.id === id);
    if (found) return found;
    throw errors.conflict(`Meeting ${id} is not an open breakout room of meeting ${parent.id}`);
  }

  private checkTitle(title: string | undefined): void {
    if (title !== undefined && title.length > BREAKOUT_TITLE_CHARS)
      throw errors.validation(`a breakout room's title holds at most ${BREAKOUT_TITLE_CHARS} characters`);
  }

  /** Where a participant asked to move is going, while they are still in their meeting. */
  private movingTo(data: OrgData, participantId: string): string | undefined {
    const to = this.moving.get(participantId)?.to;
    if (to === undefined) return undefined;
    if (data.participants.get(participantId)?.joinedAt != null) return to;
    this.moving.delete(participantId);
    return undefined;
  }

  private announceRooms(data: OrgData, parent: Meeting, change: 'opened' | 'renamed' | 'closed', rooms: Meeting[]): void {
    this.ctx.bus.publish({ type: 'breakout.roomsChanged', at: this.ctx.clock.now(), org: data.org, meeting: parent, change, rooms });
  }
}
