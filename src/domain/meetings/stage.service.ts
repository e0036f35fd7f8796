// The stage of a meeting's LIVE session: where each present participant stands (stage-rules.ts),
// their own moves (ask, cancel, join, leave) and a host's moves on others (let on, turn down,
// remove), checked whole before anything changes. A page and a scripted participant are moved
// alike; every change is published (stage.changed), and the rooms tell the pages.
//
// A participant who has not moved stands where their preset puts them on joining; a leave
// forgets where they stood, and the end of the session forgets everyone. In memory only (not in
// state exports); a reset or the organization's reset empties it.
import { errors } from '../../core/errors.js';
import type { DomainEvent } from '../events.js';
import { orgData, type DomainContext } from '../context.js';
import type { Meeting, Participant, Preset } from '../models.js';
import {
  initialStage,
  managesStage,
  stageAccess,
  stageEnabled,
  stageMove,
  type HostStageAction,
  type OwnStageAction,
  type StageAction,
  type StageStatus,
} from './stage-rules.js';
import type { SessionsService } from './sessions.service.js';

export interface StageStanding {
  participant: Participant;
  status: StageStatus;
}

interface Move {
  participant: Participant;
  from: StageStatus;
  to: StageStatus;
}

export class StageService {
  /** Meeting id → participant id → where they stand, for those who moved; with the organization, for its reset. */
  private readonly stages = new Map<string, { orgId: string; statuses: Map<string, StageStatus> }>();

  constructor(
    private readonly ctx: DomainContext,
    private readonly sessions: Pick<SessionsService, 'locateMeeting' | 'present'>,
  ) {
    ctx.bus.subscribe((e) => this.forget(e));
  }

  reset(): void {
    this.stages.clear();
  }

  resetOrg(orgId: string): void {
    for (const [meetingId, stage] of this.stages) if (stage.orgId === orgId) this.stages.delete(meetingId);
  }

  /** Where a participant stands now. */
  statusOf(meeting: Meeting, participant: Participant): StageStatus {
    const moved = this.stages.get(meeting.id)?.statuses.get(participant.id);
    if (moved) return moved;
    const preset = this.presetOf(meeting, participant);
    return preset ? initialStage(preset) : 'ON_STAGE';
  }

  /** Everyone present and where they stand, in the order they were added to the meeting. */
  standings(meetingId: string): StageStanding[] {
    const meeting = this.sessions.locateMeeting(meetingId);
    return this.sessions.present(meeting).map((participant) => ({ participant, status: this.statusOf(meeting, participant) }));
  }

  /** Whether the participant's preset may grant, deny and remove others' stage access. */
  mayManage(meeting: Meeting, participant: Participant): boolean {
    const preset = this.presetOf(meeting, participant);
    return preset !== undefined && managesStage(preset);
  }

  /** A participant's own move (ask, cancel, join, leave). Answers where they stand afterwards. */
  own(meetingId: string, participantId: string, action: OwnStageAction): StageStatus {
    const meeting = this.sessions.locateMeeting(meetingId);
    const participant = this.present(meeting, participantId, 'move on the stage');
    const move = this.move(meeting, participant, action);
    this.apply(meeting, [move], action, participant.id);
    return move.to;
  }

  /** A host's move on others (let on, turn down, remove from the stage); `by` null: the emulator's operator. All or none. */
  manage(meetingId: string, by: string | null, action: HostStageAction, participantIds: string[]): void {
    const meeting = this.sessions.locateMeeting(meetingId);
    if (by !== null) {
      const host = this.present(meeting, by, 'manage the stage');
      if (!this.mayManage(meeting, host)) {
        const preset = this.presetOf(meeting, host);
        throw errors.forbidden(
          `The preset ${preset?.name ?? '(none)'} may not manage the stage (it needs a stage, and permissions.accept_stage_requests or can_accept_production_requests)`,
        );
      }
    }
    if (participantIds.length === 0) throw errors.badRequest('Name at least one participant');
    const moves = [...new Set(participantIds)].map((id) => this.move(meeting, this.present(meeting, id, 'be moved on the stage', true), action));
    this.apply(meeting, moves, action, by);
  }

  // --- rules ----------------------------------------------------------------------------------

  private move(meeting: Meeting, participant: Participant, action: StageAction): Move {
    const preset = this.presetOf(meeting, participant);
    if (!preset || !stageEnabled(preset)) throw errors.conflict(`The preset ${preset?.name ?? '(none)'} of participant ${participant.id} has no stage`);
    const from = this.statusOf(meeting, participant);
    const next = stageMove(from, action, stageAccess(preset));
    if ('refusal' in next) throw errors.conflict(`Participant ${participant.id} ${next.refusal}`);
    return { participant, from, to: next.to };
  }

  private apply(meeting: Meeting, moves: Move[], action: StageAction, by: string | null): void {
    const stage = this.stages.get(meeting.id) ?? { orgId: meeting.orgId, statuses: new Map<string, StageStatus>() };
    this.stages.set(meeting.id, stage);
    const data = orgData(this.ctx, meeting.orgId);
    for (const m of moves) {
      stage.statuses.set(m.participant.id, m.to);
      if (m.from === m.to) continue;
      this.ctx.bus.publish({
        type: 'stage.changed',
        at: this.ctx.clock.now(),
        org: data.org,
        meeting,
        participant: m.participant,
        status: m.to,
        previous: m.from,
        action,
        by,
      });
    }
  }

  /** A participant in this meeting now; `target`: named by someone else (the message says whom). */
  private present(meeting: Meeting, participantId: string, what: string, target = false): Participant {
    const p = orgData(this.ctx, meeting.orgId).participants.get(participantId);
    if (!p || p.meetingId !== meeting.id || p.joinedAt === null)
      throw errors.conflict(target ? `Participant ${participantId} is not in meeting ${meeting.id}` : `Join meeting ${meeting.id} before you ${what}`);
    return p;
  }

  private presetOf(meeting: Meeting, participant: Participant): Preset | undefined {
    return orgData(this.ctx, meeting.orgId).presets.get(participant.presetId);
  }

  /** A leave forgets where the participant stood; the end of the session forgets everyone. */
  private forget(e: DomainEvent): void {
    if (e.type === 'participant.left') this.stages.get(e.meeting.id)?.statuses.delete(e.participant.id);
    else if (e.type === 'meeting.ended') this.stages.delete(e.meeting.id);
  }
}
