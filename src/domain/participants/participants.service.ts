import { errors } from '../../core/errors.js';
import { orgData, type DomainContext } from '../context.js';
import type { Meeting, Participant, Preset } from '../models.js';
import { paginate, type Page, type PageRequest } from '../paging.js';
import type { SessionsService } from '../meetings/sessions.service.js';
import type { ParticipantTokens } from './participant-tokens.js';
import type { OrgData } from '../../store/store.js';
import type { FixtureOrg, OrgMember } from '../organizations/org-member.js';

export interface ParticipantInput {
  name?: string | null;
  picture?: string | null;
  presetName?: string;
  customParticipantId?: string;
}

export interface ParticipantWithToken {
  participant: Participant;
  token: string;
}

export class ParticipantsService implements OrgMember {
  constructor(
    private readonly ctx: DomainContext,
    readonly tokens: ParticipantTokens,
    /** Scripted presence: a participant removed while in the meeting leaves it first. */
    private readonly sessions: Pick<SessionsService, 'leave'>,
  ) {}

  private meeting(orgId: string, meetingId: string): Meeting {
    const meeting = orgData(this.ctx, orgId).meetings.get(meetingId);
    if (!meeting) throw errors.notFound('meeting', meetingId);
    return meeting;
  }

  private preset(orgId: string, name: string): Preset {
    const byName = orgData(this.ctx, orgId).presetsByName;
    const preset = byName.get(name);
    // The production text first, so that a client matching it still does; then what would work.
    if (!preset) throw errors.validation(`No preset found with name ${name}; the organization's presets are: ${[...byName.keys()].join(', ') || '(none)'}`);
    return preset;
  }

  async add(
    orgId: string,
    meetingId: string,
    input: Required<Pick<ParticipantInput, 'presetName' | 'customParticipantId'>> & ParticipantInput,
  ): Promise<ParticipantWithToken> {
    const meeting = this.meeting(orgId, meetingId);
    // Emulator decision: adding to an INACTIVE meeting is a state conflict (409).
    if (meeting.status === 'INACTIVE') throw errors.conflict(`Meeting ${meetingId} is INACTIVE; participants cannot be added`);
    const preset = this.preset(orgId, input.presetName);
    const now = this.ctx.clock.now();
    const participant: Participant = {
      id: this.ctx.ids.uuid(),
      orgId,
      meetingId,
      name: input.name ?? null,
      picture: input.picture ?? null,
      customParticipantId: input.customParticipantId,
      presetId: preset.id,
      presetName: preset.name,
      createdAt: now,
      updatedAt: now,
      joinedAt: null,
    };
    orgData(this.ctx, orgId).putParticipant(participant);
    return { participant, token: await this.tokenFor(participant, now) };
  }

  get(orgId: string, meetingId: string, participantId: string): Participant {
    this.meeting(orgId, meetingId);
    const p = orgData(this.ctx, orgId).participants.get(participantId);
    if (!p || p.meetingId !== meetingId) throw errors.notFound('participant', participantId);
    return p;
  }

  /** Oldest first, as they were added. */
  list(orgId: string, meetingId: string, page: PageRequest): Page<Participant> {
    this.meeting(orgId, meetingId);
    const data = orgData(this.ctx, orgId);
    return paginate(data.participantsByMeeting.get(meetingId) ?? [], (id) => data.participants.get(id), page, { newestFirst: false });
  }

  /** PATCH: the given fields change; the answer carries a fresh token. */
  async update(orgId: string, meetingId: string, participantId: string, patch: ParticipantInput): Promise<ParticipantWithToken> {
    const current = this.get(orgId, meetingId, participantId);
    const now = this.ctx.clock.now();
    const next: Participant = { ...current, updatedAt: now };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.picture !== undefined) next.picture = patch.picture;
    if (patch.customParticipantId !== undefined) next.customParticipantId = patch.customParticipantId;
    if (patch.presetName !== undefined) {
      const preset = this.preset(orgId, patch.presetName);
      next.presetId = preset.id;
      next.presetName = preset.name;
    }
    orgData(this.ctx, orgId).putParticipant(next);
    return { participant: next, token: await this.tokenFor(next, now) };
  }

  /**
   * One who is in the meeting leaves it first (participantLeft; when it was the last one
   * present the session ends, which arms the ALL_PEERS_LEFT stop of its recordings).
   */
  remove(orgId: string, meetingId: string, participantId: string): Participant {
    const p = this.get(orgId, meetingId, participantId);
    if (p.joinedAt !== null) this.sessions.leave(p.meetingId, p.id, 'removed');
    const removed = this.get(orgId, meetingId, participantId);
    orgData(this.ctx, orgId).deleteParticipant(removed);
    return removed;
  }

  async newToken(orgId: string, meetingId: string, participantId: string): Promise<string> {
    return this.tokenFor(this.get(orgId, meetingId, participantId), this.ctx.clock.now());
  }

  /** Looks a participant up by id alone (token verification): undefined once deleted. */
  find(orgId: string, participantId: string): Participant | undefined {
    return this.ctx.store.org(orgId)?.participants.get(participantId);
  }

  presetById(orgId: string, presetId: string): Preset | undefined {
    return this.ctx.store.org(orgId)?.presets.get(presetId);
  }

  private tokenFor(p: Participant, now: number): Promise<string> {
    return this.tokens.sign({ orgId: p.orgId, meetingId: p.meetingId, participantId: p.id, presetId: p.presetId }, now);
  }

  /** The participants a state document holds for the organization, as saved (OrgMember). */
  seedOrg(data: OrgData, fixtureOrg: FixtureOrg): void {
    for (const item of fixtureOrg.participants ?? []) data.putParticipant(structuredClone(item));
  }
}
