import { errors } from '../../core/errors.js';
import { orgData, type DomainContext } from '../context.js';
import type { Meeting, MeetingStatus, Region } from '../models.js';
import { paginate, type Page, type PageRequest } from '../paging.js';
import type { OrgData } from '../../store/store.js';
import type { FixtureOrg, OrgMember } from '../organizations/org-member.js';
import { recordingConfigWithoutSecrets } from '../recordings/recording-config.js';
import { takeRecordingConfigSecrets, type StorageSecretVault } from '../recordings/storage-secrets.js';

export interface MeetingInput {
  title?: string | null;
  preferredRegion?: Region | null;
  waitingRoom?: boolean;
  recordOnStart?: boolean;
  liveStreamOnStart?: boolean;
  persistChat?: boolean;
  summarizeOnEnd?: boolean;
  status?: MeetingStatus;
  recordingConfig?: Record<string, unknown> | null;
  aiConfig?: Record<string, unknown> | null;
}

export interface MeetingQuery extends PageRequest {
  search?: string;
  startTime?: number;
  endTime?: number;
}

const DEFAULTS: Required<MeetingInput> = {
  title: null,
  preferredRegion: null,
  waitingRoom: false,
  recordOnStart: false,
  liveStreamOnStart: false,
  persistChat: false,
  summarizeOnEnd: false,
  status: 'ACTIVE',
  recordingConfig: null,
  aiConfig: null,
};

/** The fields given (not undefined). A loop: entries, filter and fromEntries made three arrays and a pair per field on every create. */
function defined<T extends object>(input: T): Partial<T> {
  const out: Partial<T> = {};
  // The inputs are the service's own objects, with the fixed keys of MeetingInput (never `__proto__`).
  for (const key of Object.keys(input) as Array<keyof T>) if (input[key] !== undefined) out[key] = input[key];
  return out;
}

export class MeetingsService implements OrgMember {
  constructor(
    private readonly ctx: DomainContext,
    /** Where the storage credentials of a meeting's recording_config go (never into the meeting). */
    private readonly secrets?: StorageSecretVault,
  ) {}

  /** A recording_config given: its storage secrets go to the vault, replacing the meeting's earlier ones. */
  private holdSecrets(orgId: string, meetingId: string, input: MeetingInput, replacing: boolean): void {
    const secrets = takeRecordingConfigSecrets(input.recordingConfig);
    if (input.recordingConfig !== undefined || replacing) this.secrets?.holdForMeeting(orgId, meetingId, secrets);
  }

  create(orgId: string, input: MeetingInput): Meeting {
    const data = orgData(this.ctx, orgId);
    const now = this.ctx.clock.now();
    const meeting: Meeting = {
      id: this.ctx.ids.uuid(),
      orgId,
      ...DEFAULTS,
      ...defined(input),
      createdAt: now,
      updatedAt: now,
      session: null,
    };
    this.holdSecrets(orgId, meeting.id, input, false);
    data.putMeeting(meeting);
    return meeting;
  }

  get(orgId: string, id: string): Meeting {
    const meeting = orgData(this.ctx, orgId).meetings.get(id);
    if (!meeting) throw errors.notFound('meeting', id);
    return meeting;
  }

  /** Newest first. `search` matches the title or the id, case-insensitively (production: "the meeting ID or title"). */
  list(orgId: string, q: MeetingQuery): Page<Meeting> {
    const data = orgData(this.ctx, orgId);
    const needle = q.search?.toLowerCase();
    // Stryker disable next-line ConditionalExpression: without filters every meeting matches, so the filtering walk gives the same page, only slower.
    const filtered = needle !== undefined || q.startTime !== undefined || q.endTime !== undefined;
    return paginate(data.meetingOrder, (id) => data.meetings.get(id), q, {
      newestFirst: true,
      filter: filtered
        ? (m) =>
            (needle === undefined || (m.title ?? '').toLowerCase().includes(needle) || m.id.includes(needle)) &&
            (q.startTime === undefined || m.createdAt >= q.startTime) &&
            (q.endTime === undefined || m.createdAt <= q.endTime)
        : undefined,
    });
  }

  /** PATCH: only the given fields change. */
  update(orgId: string, id: string, patch: MeetingInput): Meeting {
    const current = this.get(orgId, id);
    this.holdSecrets(orgId, id, patch, false);
    const next: Meeting = { ...current, ...defined(patch), updatedAt: this.ctx.clock.now() };
    orgData(this.ctx, orgId).putMeeting(next);
    return next;
  }

  /** PUT: the meeting is replaced; fields not given return to their defaults. */
  replace(orgId: string, id: string, input: MeetingInput): Meeting {
    const current = this.get(orgId, id);
    this.holdSecrets(orgId, id, input, true);
    const next: Meeting = { ...current, ...DEFAULTS, ...defined(input), updatedAt: this.ctx.clock.now() };
    orgData(this.ctx, orgId).putMeeting(next);
    return next;
  }

  /**
   * The meetings a state document holds for the organization, as saved (OrgMember); a storage
   * secret a hand-written document carries is dropped here too, so it is never kept.
   */
  seedOrg(data: OrgData, fixtureOrg: FixtureOrg): void {
    for (const item of fixtureOrg.meetings ?? []) {
      const meeting = structuredClone(item);
      data.putMeeting({ ...meeting, recordingConfig: recordingConfigWithoutSecrets(meeting.recordingConfig) });
    }
  }
}
