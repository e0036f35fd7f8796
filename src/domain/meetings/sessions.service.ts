// Scripted presence (control API; there is no WebRTC in the emulator). Participants join and
// leave; the first join opens a session (the `session_id` its recordings carry) and starts
// what the meeting asks for on start; the last leave ends the session, and an active recording
// stops 60 s later with ALL_PEERS_LEFT unless someone rejoins first.
//
// Emulator decisions (the contract is silent):
// - A rejoin after the session ended opens a new session (meeting.started again). A recording
//   that survived the 60 s grace keeps the session_id it started with.
// - The ALL_PEERS_LEFT stop is a rule of the service, not a simulated outside event: it fires
//   on the clock even when the simulator's recording mode is `manual` (like max_seconds).
//   It stops recordings that are RECORDING or PAUSED; one still INVOKED is left alone.
// - Livestreams are not stopped when everyone leaves.
// - The host's kick (v2 active-session API) is a leave like any other: participantLeft, and
//   the last one out ends the session with ALL_PARTICIPANTS_LEFT. Kick-all ends it with
//   HOST_ENDED_MEETING after everyone's participantLeft. A kicked participant may join again.
//
// Every change is also written to the session history (session-history.service.ts).
import { errors } from '../../core/errors.js';
import { z } from 'zod';
import { defineJob, jobIdField } from '../../core/jobs.js';
import { orgData, type DomainContext } from '../context.js';
import type { LivestreamsService } from '../livestreams/livestreams.service.js';
import type { LeaveCause } from '../events.js';
import type { Meeting, MeetingSession, Participant } from '../models.js';
import { SYSTEM_CALLER, type RecordingsService } from '../recordings/recordings.service.js';
import type { ParticipantSelector, SessionHistoryService } from '../sessions/session-history.service.js';

export const ALL_PEERS_LEFT_STOP_MS = 60_000;
/** Stops a meeting's recordings once everyone has been gone for ALL_PEERS_LEFT_STOP_MS. */
const ALL_PEERS_LEFT_JOB = defineJob({
  kind: 'meeting.allPeersLeft',
  payload: z.object({ orgId: jobIdField, meetingId: jobIdField }).strict(),
  key: ({ meetingId }: { meetingId: string }) => `meeting:${meetingId}:all-peers-left`,
  orgId: (p) => p.orgId,
});

export interface Presence {
  meeting: Meeting;
  session: MeetingSession | null;
  /** Present participants, in the order they were added to the meeting. */
  present: Participant[];
}

export class SessionsService {
  constructor(
    private readonly ctx: DomainContext,
    private readonly recordings: RecordingsService,
    private readonly livestreams: LivestreamsService,
    private readonly history: SessionHistoryService,
  ) {
    ctx.scheduler.handle(ALL_PEERS_LEFT_JOB, (payload) => this.onAllPeersLeft(payload));
  }

  /** Finds a meeting by id in whichever organization holds it (the control API has no credentials). */
  locateMeeting(meetingId: string): Meeting {
    const m = this.ctx.store.findInAnyOrg((d) => d.meetings, meetingId);
    if (!m) throw errors.notFound('meeting', meetingId);
    return m;
  }

  presence(meetingId: string): Presence {
    const meeting = this.locateMeeting(meetingId);
    return { meeting, session: meeting.session, present: this.present(meeting) };
  }

  join(meetingId: string, participantId: string): Presence {
    const meeting = this.locateMeeting(meetingId);
    const participant = this.participant(meeting, participantId);
    if (meeting.status === 'INACTIVE') throw errors.conflict(`Meeting ${meeting.id} is INACTIVE; participants cannot join`);
    if (participant.joinedAt !== null) throw errors.conflict(`Participant ${participant.id} has already joined meeting ${meeting.id}`);
    const data = orgData(this.ctx, meeting.orgId);
    const now = this.ctx.clock.now();
    // Someone is back: the pending ALL_PEERS_LEFT stop is off.
    this.ctx.scheduler.cancel(ALL_PEERS_LEFT_JOB, { meetingId: meeting.id });

    let current = meeting;
    const opens = !meeting.session || meeting.session.endedAt !== null;
    if (opens) {
      current = { ...meeting, session: { id: this.ctx.ids.uuid(), startedAt: now, endedAt: null } };
      data.putMeeting(current);
      this.history.opened(current, current.session!.id, now);
      this.ctx.bus.publish({ type: 'meeting.started', at: now, org: data.org, meeting: current });
    }
    const joined: Participant = { ...participant, joinedAt: now };
    data.putParticipant(joined);
    this.history.joined(current, current.session!.id, joined, now);
    this.ctx.bus.publish({ type: 'participant.joined', at: now, org: data.org, meeting: current, participant: joined });

    if (opens) {
      if (current.recordOnStart && !this.recordings.activeFor(current.orgId, current.id)) {
        this.recordings.start(current.orgId, { meetingId: current.id }, SYSTEM_CALLER, 'RECORD_ON_START');
      }
      if (current.liveStreamOnStart && !this.livestreams.activeFor(current.orgId, current.id)) {
        this.livestreams.create(current.orgId, current.id, {});
      }
    }
    return this.presence(current.id);
  }

  leave(meetingId: string, participantId: string, cause: 'left' | 'removed' = 'left'): Presence {
    const meeting = this.locateMeeting(meetingId);
    const participant = this.participant(meeting, participantId);
    if (participant.joinedAt === null) throw errors.conflict(`Participant ${participant.id} is not in meeting ${meeting.id}`);
    this.depart(meeting, participant, 'ALL_PARTICIPANTS_LEFT', cause);
    return this.presence(meeting.id);
  }

  /**
   * The host removes participants from the meeting's LIVE session (v2 kick): each leaves, as
   * with a leave. Answers them as they were in the session, in the order they joined.
   */
  kick(orgId: string, meetingId: string, selector: ParticipantSelector) {
    const session = this.history.active(orgId, meetingId);
    const kicked = this.history.selectPresent(session, selector);
    const meeting = orgData(this.ctx, orgId).meetings.get(meetingId)!;
    for (const p of kicked) this.depart(this.locateMeeting(meeting.id), this.participant(meeting, p.participantId), 'ALL_PARTICIPANTS_LEFT', 'kicked');
    return kicked.map((p) => this.participant(meeting, p.participantId));
  }

  /** The host ends the session (v2 kick-all): everyone leaves, then meeting.ended HOST_ENDED_MEETING. Answers how many left. */
  kickAll(orgId: string, meetingId: string): number {
    this.history.active(orgId, meetingId);
    const meeting = orgData(this.ctx, orgId).meetings.get(meetingId)!;
    const present = this.present(meeting);
    for (const p of present) this.depart(this.locateMeeting(meeting.id), p, null, 'ended');
    this.end(this.locateMeeting(meeting.id), 'HOST_ENDED_MEETING');
    return present.length;
  }

  /** One participant leaves; when `endReason` is given and nobody is left, the session ends with it. */
  private depart(meeting: Meeting, participant: Participant, endReason: 'ALL_PARTICIPANTS_LEFT' | null, cause: LeaveCause): void {
    const data = orgData(this.ctx, meeting.orgId);
    const now = this.ctx.clock.now();
    const left: Participant = { ...participant, joinedAt: null };
    data.putParticipant(left);
    if (meeting.session) this.history.left(meeting, meeting.session.id, participant.id, now);
    this.ctx.bus.publish({ type: 'participant.left', at: now, org: data.org, meeting, participant: left, joinedAt: participant.joinedAt!, cause });
    if (endReason && this.present(meeting).length === 0) this.end(meeting, endReason);
  }

  /** Ends the meeting's running session (no-op when none runs) and arms the ALL_PEERS_LEFT stop. */
  private end(meeting: Meeting, reason: 'ALL_PARTICIPANTS_LEFT' | 'HOST_ENDED_MEETING'): void {
    if (!meeting.session || meeting.session.endedAt !== null) return;
    const data = orgData(this.ctx, meeting.orgId);
    const now = this.ctx.clock.now();
    const ended: Meeting = { ...meeting, session: { ...meeting.session, endedAt: now } };
    data.putMeeting(ended);
    this.ctx.bus.publish({ type: 'meeting.ended', at: now, org: data.org, meeting: ended, reason });
    if (this.recordings.activeFor(meeting.orgId, meeting.id)) {
      this.ctx.scheduler.schedule(ALL_PEERS_LEFT_JOB, { orgId: meeting.orgId, meetingId: meeting.id }, now + ALL_PEERS_LEFT_STOP_MS);
    }
    this.history.ended(ended, meeting.session.id, reason, now);
  }

  /** A participant of the meeting, present or not; 404 for an id that names none of its participants. */
  participant(meeting: Meeting, participantId: string): Participant {
    const p = orgData(this.ctx, meeting.orgId).participants.get(participantId);
    if (!p || p.meetingId !== meeting.id) throw errors.notFound('participant', participantId);
    return p;
  }

  /** Who is in the meeting now, in the order they were added to it. */
  present(meeting: Meeting): Participant[] {
    const data = orgData(this.ctx, meeting.orgId);
    // Stryker disable next-line ArrayDeclaration: the made-up id names no participant, and the filter right after drops it.
    return (data.participantsByMeeting.get(meeting.id) ?? [])
      .map((id) => data.participants.get(id))
      .filter((p): p is Participant => !!p && p.joinedAt !== null);
  }

  private onAllPeersLeft({ orgId, meetingId }: { orgId: string; meetingId: string }): void {
    const meeting = this.ctx.store.org(orgId)?.meetings.get(meetingId);
    if (!meeting || this.present(meeting).length > 0) return;
    for (const r of this.recordings.forMeetingWithStatus(orgId, meetingId, ['RECORDING', 'PAUSED'])) {
      this.recordings.stopBySystem(orgId, r.id, { reason: 'ALL_PEERS_LEFT', caller: SYSTEM_CALLER });
    }
  }
}
