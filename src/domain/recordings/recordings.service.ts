import { flat } from '../../core/strings.js';
import type { Logger } from '../../logger.js';
import { errors } from '../../core/errors.js';
import { z } from 'zod';
import { defineJob, jobIdField } from '../../core/jobs.js';
import { orgData, type DomainContext } from '../context.js';
import type { MediaLinks } from '../media/media-links.js';
import type { Meeting, ReasonCaller, Recording, RecordingKind, RecordingStatus } from '../models.js';
import { paginate, type Page, type PageRequest } from '../paging.js';
import {
  ACTIVE_RECORDING_STATUSES,
  DOWNLOAD_URL_LIFETIME_MS,
  recordedMsAt,
  recordingEventFor,
  transitionRecording,
  type RecordingEvent,
} from './recording-machine.js';
import type { OrgData } from '../../store/store.js';
import type { FixtureOrg, OrgMember } from '../organizations/org-member.js';
import { meetingRecordingOptions, recordingConfigWithoutSecrets, resolveRecordingOptions, storageLevel, type RecordingOptions } from './recording-config.js';
import type { StorageSecretVault, StorageSecrets } from './storage-secrets.js';
import { RecordingDelivery, type DeliveryOutcome } from './recording-delivery.js';
import type { RecordingArtifacts, RecordingFile, RecordingFiles } from './recording-files.js';
import { audioFileName, outputFileName, recordingFormats } from './recording-formats.js';
import { WatermarkUnusable, type WatermarkImage } from './watermark.js';

export type Caller = ReasonCaller['caller'];
export const SYSTEM_CALLER: Caller = { name: null, type: 'SYSTEM', user_id: null };

/** What the start request says; what it leaves out comes from the meeting's recording config. */
export interface StartRecordingInput extends RecordingOptions {
  meetingId: string;
  allowMultipleRecordings?: boolean;
  /** A track recording (POST /v2/recordings/track) rather than a composite one. */
  kind?: RecordingKind;
  /** The credentials of the start request's storage config (kept in the vault, never on the recording). */
  storageSecrets?: StorageSecrets;
}

export interface RecordingQuery extends PageRequest {
  meetingId?: string;
  statuses?: RecordingStatus[];
  /** Part of the recording id, meeting id, meeting title or output file name, case-insensitively. */
  search?: string;
  /** Invoked at or after / at or before (epoch ms). */
  startTime?: number;
  endTime?: number;
  /** true: only recordings whose download links have expired; false: only the others. */
  expired?: boolean;
  sortOrder: 'ASC' | 'DESC';
}
/** Stops a recording once it has recorded its max_seconds. */
const MAX_SECONDS_JOB = defineJob({
  kind: 'recording.maxSeconds',
  payload: z.object({ orgId: jobIdField, recordingId: jobIdField }).strict(),
  key: ({ recordingId }: { recordingId: string }) => `recording:${recordingId}:max-seconds`,
  orgId: (p) => p.orgId,
});

export class RecordingsService implements OrgMember {
  /** The steps between a stop and UPLOADED: the files complete, then sent where the recording asked. */
  readonly delivery: RecordingDelivery;

  constructor(
    private readonly ctx: DomainContext,
    private readonly media: MediaLinks,
    /** Each recording's files: the recorder's, or the sample. */
    readonly files: RecordingFiles,
    private readonly logger?: Logger,
    /** Where storage credentials are kept: the recording's, from the level its storage config came from. */
    private readonly secrets?: StorageSecretVault,
  ) {
    this.delivery = new RecordingDelivery(files);
    ctx.scheduler.handle(MAX_SECONDS_JOB, (payload) => this.onMaxSeconds(payload));
    // Recordings in progress alone over the disk limit: the largest one stops, as at max_seconds.
    files.onOverLimit((id) => this.onDiskFull(id));
  }

  private meeting(orgId: string, meetingId: string): Meeting {
    const m = orgData(this.ctx, orgId).meetings.get(meetingId);
    if (!m) throw errors.notFound('meeting', meetingId);
    return m;
  }

  start(orgId: string, input: StartRecordingInput, caller: Caller, reason: 'API_CALL' | 'RECORD_ON_START' = 'API_CALL'): Recording {
    const data = orgData(this.ctx, orgId);
    const meeting = this.meeting(orgId, input.meetingId);
    if (!input.allowMultipleRecordings && this.activeFor(orgId, meeting.id)) {
      throw errors.conflict(`Meeting ${meeting.id} already has an active recording; pass allow_multiple_recordings to start another`);
    }
    const now = this.ctx.clock.now();
    const id = this.ctx.ids.uuid();
    const meetingOptions = meetingRecordingOptions(meeting.recordingConfig);
    const orgOptions = meetingRecordingOptions(data.recordingConfig);
    const options = resolveRecordingOptions(input, meetingOptions, orgOptions);
    const kind = input.kind ?? 'composite';
    const formats = recordingFormats({ kind, video: options.video, audio: options.audio, exportAudio: options.exportAudio }, this.files.real);
    const recording: Recording = {
      id,
      orgId,
      meetingId: meeting.id,
      status: 'INVOKED',
      outputFileName: flat(outputFileName(options.fileNamePrefix, meeting.id, now, (formats.video ?? formats.audio)!)),
      invokedTime: now,
      startedTime: null,
      stoppedTime: null,
      sessionId: null,
      fileSize: null,
      downloadUrl: null,
      audioDownloadUrl: null,
      downloadUrlExpiry: null,
      recordingDuration: null,
      storageConfig: options.storageConfig ? { id: this.ctx.ids.uuid(), ...options.storageConfig } : null,
      startReason: { reason, caller },
      stopReason: null,
      maxSeconds: options.maxSeconds,
      allowMultipleRecordings: input.allowMultipleRecordings ?? false,
      uploadToBucket: options.uploadToBucket,
      exportAudio: options.exportAudio,
      kind,
      video: options.video,
      audio: options.audio,
      recordedMs: 0,
      spanStartedAt: null,
      errorReason: null,
    };
    data.putRecording(recording);
    this.holdSecrets(recording, storageLevel(input, meetingOptions, orgOptions), input.storageSecrets);
    this.publish(recording, null, now);
    return recording;
  }

  /**
   * A start through the API: what must be looked at outside the emulator first (the watermark
   * image loads) is, and a problem is a 400 before anything starts.
   */
  async startFromApi(orgId: string, input: StartRecordingInput, caller: Caller): Promise<Recording> {
    const meeting = this.meeting(orgId, input.meetingId);
    const orgOptions = meetingRecordingOptions(orgData(this.ctx, orgId).recordingConfig);
    const { video } = resolveRecordingOptions(input, meetingRecordingOptions(meeting.recordingConfig), orgOptions);
    let image: WatermarkImage | undefined;
    if (this.files.real && (input.kind ?? 'composite') === 'composite' && video.exportFile && video.watermark) {
      try {
        image = await this.files.fetchWatermark(video.watermark.url);
      } catch (err) {
        if (err instanceof WatermarkUnusable) throw errors.validation(`"video_config.watermark.url" ${err.message}`);
        throw err;
      }
    }
    const recording = this.start(orgId, input, caller);
    if (image) this.files.keepWatermark(recording, image);
    return recording;
  }

  /**
   * The recording's storage credentials are those of the level its storage config came from. A
   * level loaded from a state document has none (they are never exported): nothing is held then,
   * and the upload says why.
   */
  private holdSecrets(r: Recording, level: ReturnType<typeof storageLevel>, fromStart: StorageSecrets | undefined): void {
    if (!this.secrets || level === null) return;
    const secrets = level === 'start' ? (fromStart ?? {}) : level === 'meeting' ? this.secrets.forMeeting(r.orgId, r.meetingId) : this.secrets.forOrg(r.orgId);
    if (secrets) this.secrets.holdForRecording(r.orgId, r.id, secrets);
  }

  /**
   * The organization's stored recording config (what production sets in its developer portal):
   * the lowest level of the precedence order. Kept as given without its storage secrets, which go
   * to the vault; null removes it.
   */
  setOrgRecordingConfig(orgId: string, config: Record<string, unknown> | null, secrets: StorageSecrets | undefined): Record<string, unknown> | null {
    const data = orgData(this.ctx, orgId);
    data.recordingConfig = config;
    this.secrets?.holdForOrg(orgId, config?.storage_config ? secrets : undefined);
    return config;
  }

  orgRecordingConfig(orgId: string): Record<string, unknown> | null {
    return orgData(this.ctx, orgId).recordingConfig;
  }

  get(orgId: string, id: string): Recording {
    const r = orgData(this.ctx, orgId).recordings.get(id);
    if (!r) throw errors.notFound('recording', id);
    return r;
  }

  /** The recording, if the organization still holds it. */
  find(orgId: string, id: string): Recording | undefined {
    return this.ctx.store.org(orgId)?.recordings.get(id);
  }

  /**
   * Finds a recording by id in whichever organization holds it (the control API has no
   * credentials to scope by; ids are UUIDs, unique across organizations).
   */
  locate(id: string): Recording {
    const r = this.ctx.store.findInAnyOrg((d) => d.recordings, id);
    if (!r) throw errors.notFound('recording', id);
    return r;
  }

  /** Every recording, in any organization, whose status is one of `statuses` (simulator re-arm). */
  allWithStatus(statuses: readonly RecordingStatus[]): Recording[] {
    return this.ctx.store.allInAnyOrg(
      (d) => ({ order: d.recordingOrder, items: d.recordings }),
      (r) => statuses.includes(r.status),
    );
  }

  /** All of a meeting's recordings in one of `statuses`, oldest first. */
  forMeetingWithStatus(orgId: string, meetingId: string, statuses: readonly RecordingStatus[]): Recording[] {
    const data = orgData(this.ctx, orgId);
    // Stryker disable next-line ArrayDeclaration: the made-up id names no recording, and the filter right after drops it.
    return (data.recordingsByMeeting.get(meetingId) ?? []).map((id) => data.recordings.get(id)!).filter((r) => r && statuses.includes(r.status));
  }

  meetingOf(r: Recording): Meeting {
    return this.meeting(r.orgId, r.meetingId);
  }

  list(orgId: string, q: RecordingQuery): Page<Recording> {
    const data = orgData(this.ctx, orgId);
    const statuses = q.statuses && q.statuses.length > 0 ? new Set(q.statuses) : undefined;
    const needle = q.search?.toLowerCase();
    const now = this.ctx.clock.now();
    const matches = (r: Recording): boolean => {
      if (statuses && !statuses.has(r.status)) return false;
      if (q.startTime !== undefined && r.invokedTime < q.startTime) return false;
      if (q.endTime !== undefined && r.invokedTime > q.endTime) return false;
      // Expired: its links were made and their expiry has passed on the emulator's clock.
      if (q.expired !== undefined && (r.downloadUrlExpiry !== null && r.downloadUrlExpiry <= now) !== q.expired) return false;
      if (needle !== undefined) {
        const title = data.meetings.get(r.meetingId)?.title ?? '';
        if (![r.id, r.meetingId, r.outputFileName.toLowerCase(), title.toLowerCase()].some((text) => text.includes(needle))) return false;
      }
      return true;
    };
    // Stryker disable next-line ConditionalExpression: without filters every recording matches, so the filtering walk gives the same page, only slower.
    const filtered = statuses !== undefined || needle !== undefined || q.startTime !== undefined || q.endTime !== undefined || q.expired !== undefined;
    const ids = q.meetingId ? (data.recordingsByMeeting.get(q.meetingId) ?? []) : data.recordingOrder;
    return paginate(ids, (id) => data.recordings.get(id), q, { newestFirst: q.sortOrder === 'DESC', filter: filtered ? matches : undefined });
  }

  /** The meeting's newest recording in INVOKED, RECORDING or PAUSED, if any. */
  activeFor(orgId: string, meetingId: string): Recording | undefined {
    const data = orgData(this.ctx, orgId);
    const ids = data.recordingsByMeeting.get(meetingId) ?? [];
    // Stryker disable next-line ArithmeticOperator: the two extra indexes past the end hold no recording and are skipped.
    for (let i = ids.length - 1; i >= 0; i--) {
      const r = data.recordings.get(ids[i]!);
      if (r && ACTIVE_RECORDING_STATUSES.includes(r.status)) return r;
    }
    return undefined;
  }

  active(orgId: string, meetingId: string): Recording {
    this.meeting(orgId, meetingId);
    const r = this.activeFor(orgId, meetingId);
    if (!r) throw errors.notFoundMessage(`No active recording found for meeting ${meetingId}`);
    return r;
  }

  /** The API's actions: stop, pause, resume. */
  act(orgId: string, id: string, action: 'stop' | 'pause' | 'resume', caller: Caller): Recording {
    const r = this.get(orgId, id);
    const event: RecordingEvent =
      action === 'stop'
        ? { type: 'STOP', reason: { reason: 'API_CALL', caller }, fileSize: this.sizeSoFar(r) }
        : action === 'pause'
          ? { type: 'PAUSE' }
          : { type: 'RESUME' };
    return this.apply(r, event, `Cannot ${action} a recording that is ${r.status}`);
  }

  /** The recorder joined: INVOKED → RECORDING (simulator). */
  begin(orgId: string, id: string): Recording {
    const r = this.get(orgId, id);
    const meeting = this.meetingOf(r);
    const sessionId = meeting.session && meeting.session.endedAt === null ? meeting.session.id : this.ctx.ids.uuid();
    // Stryker disable next-line StringLiteral: never thrown: every caller starts only INVOKED recordings, which the transition table accepts.
    return this.apply(r, { type: 'START', sessionId }, `Cannot start a recording that is ${r.status}`);
  }

  /** Stops a recording for a reason other than the API (ALL_PEERS_LEFT, max_seconds). */
  stopBySystem(orgId: string, id: string, reason: ReasonCaller): Recording {
    const r = this.get(orgId, id);
    // Stryker disable next-line StringLiteral: never thrown: every caller stops only RECORDING or PAUSED recordings, which the transition table accepts.
    return this.apply(r, { type: 'STOP', reason, fileSize: this.sizeSoFar(r) }, `Cannot stop a recording that is ${r.status}`);
  }

  /** The file_size a stop shows: what the recorder has written so far, or the sample's size. */
  private sizeSoFar(r: Recording): number {
    return this.files.bytesOf(r.id) ?? this.media.files.video.bytes;
  }

  /**
   * The upload came due (simulator): once the files are complete and delivered (recording-delivery.ts),
   * UPLOADING → UPLOADED with signed links that expire 7 days after the stop; none when the
   * recording does not upload to the emulator's bucket, no audio link when audio is not exported.
   * A delivery that fails ends the recording ERRORED. In this turn when nothing has to be waited for.
   */
  completeUpload(orgId: string, id: string): void {
    const r = this.get(orgId, id);
    this.delivery.deliver(r, (outcome) => this.delivered(orgId, id, outcome));
  }

  private delivered(orgId: string, id: string, outcome: DeliveryOutcome): void {
    // The recording may have gone (its organization's reset) or moved on (a forced failure) meanwhile.
    const r = this.ctx.store.org(orgId)?.recordings.get(id);
    if (r?.status !== 'UPLOADING') return;
    try {
      if (outcome.ok) this.apply(r, this.uploadEvent(r, outcome.files), `Cannot complete the upload of a recording that is ${r.status}`);
      else this.fail(orgId, id, outcome.reason);
    } catch (err) {
      this.logger?.error({ err, recording: id }, 'recording upload could not be completed');
    }
  }

  fail(orgId: string, id: string, reason: string): Recording {
    const r = this.get(orgId, id);
    // Stryker disable next-line StringLiteral: never thrown: every caller fails only recordings the transition table lets fail.
    return this.apply(r, { type: 'FAIL', reason }, `Cannot fail a recording that is ${r.status}`);
  }

  /** Forced transition (control API): the event the table allows from the current status to `to`. */
  force(orgId: string, id: string, to: RecordingStatus, reason?: string): Recording {
    const r = this.get(orgId, id);
    const type = recordingEventFor(r.status, to);
    const message = `Cannot move a recording from ${r.status} to ${to}`;
    if (!type) throw errors.conflict(message);
    if (type === 'START') return this.begin(orgId, id);
    if (type === 'UPLOAD_COMPLETE') {
      this.completeUpload(orgId, id);
      return this.get(orgId, id);
    }
    if (type === 'FAIL') return this.fail(orgId, id, reason ?? 'forced');
    if (type === 'STOP') return this.stopBySystem(orgId, id, { reason: reason ?? 'API_CALL', caller: SYSTEM_CALLER });
    return this.apply(r, { type }, message);
  }

  private uploadEvent(r: Recording, files: RecordingArtifacts): RecordingEvent {
    const fileSize = (files.video ?? files.audio)?.bytes;
    if (!r.uploadToBucket) return { type: 'UPLOAD_COMPLETE', downloadUrl: null, audioDownloadUrl: null, downloadUrlExpiry: null, fileSize };
    const expiry = (r.stoppedTime ?? this.ctx.clock.now()) + DOWNLOAD_URL_LIFETIME_MS;
    const link = (file: RecordingFile | null) => file && this.media.signed(this.media.recordingFilePath(r.id, file.name), expiry);
    return {
      type: 'UPLOAD_COMPLETE',
      downloadUrl: link(files.video),
      audioDownloadUrl: r.exportAudio || !files.video ? link(files.audio) : null,
      downloadUrlExpiry: expiry,
      fileSize,
    };
  }

  /** The names of a recording's files in links (the sample's too): its output file name, and its audio file's. */
  fileNames(r: Recording): { video: string | null; audio: string | null } {
    const formats = recordingFormats(r, this.files.real);
    return { video: formats.video && r.outputFileName, audio: formats.audio && audioFileName(r.outputFileName, formats.audio) };
  }

  private apply(r: Recording, event: RecordingEvent, conflictMessage: string): Recording {
    const now = this.ctx.clock.now();
    const result = transitionRecording(r, event, now);
    if (!result.ok) throw errors.conflict(conflictMessage);
    const next = result.entity;
    orgData(this.ctx, r.orgId).putRecording(next);
    this.scheduleMaxSeconds(next, now);
    this.publish(next, r.status, now);
    return next;
  }

  /** max_seconds counts recorded time: the job is re-armed on resume and dropped on pause/stop. */
  private scheduleMaxSeconds(r: Recording, now: number): void {
    if (r.status === 'RECORDING') {
      const remaining = r.maxSeconds * 1000 - recordedMsAt(r, now);
      this.ctx.scheduler.schedule(MAX_SECONDS_JOB, { orgId: r.orgId, recordingId: r.id }, now + Math.max(0, remaining));
    } else {
      this.ctx.scheduler.cancel(MAX_SECONDS_JOB, { recordingId: r.id });
    }
  }

  private onDiskFull(recordingId: string): void {
    const r = this.ctx.store.findInAnyOrg((d) => d.recordings, recordingId);
    if (!r || (r.status !== 'RECORDING' && r.status !== 'PAUSED')) return;
    this.logger?.warn({ recording: r.id }, 'recordings in progress reached the recording disk limit; the largest is stopped');
    this.stopBySystem(r.orgId, r.id, { reason: 'API_CALL', caller: { name: 'disk_limit', type: 'SYSTEM', user_id: null } });
  }

  private onMaxSeconds({ orgId, recordingId }: { orgId: string; recordingId: string }): void {
    const r = this.ctx.store.org(orgId)?.recordings.get(recordingId);
    if (!r || r.status !== 'RECORDING') return;
    // Emulator decision: the stop reason stays within the documented values (API_CALL) with a
    // SYSTEM caller named max_seconds, so clients with strict enums keep working.
    this.stopBySystem(orgId, recordingId, { reason: 'API_CALL', caller: { name: 'max_seconds', type: 'SYSTEM', user_id: null } });
  }

  private publish(recording: Recording, previous: RecordingStatus | null, at: number): void {
    const data = orgData(this.ctx, recording.orgId);
    const meeting = this.meetingOf(recording);
    const own = recording.sessionId === null ? undefined : data.sessions.get(recording.sessionId);
    const session = own ? { id: own.id, startedAt: own.startedAt, endedAt: own.endedAt } : meeting.session;
    this.ctx.bus.publish({ type: 'recording.statusChanged', at, org: data.org, meeting, session, recording, previous });
  }

  /** The recordings a state document holds for the organization, as saved (OrgMember). */
  seedOrg(data: OrgData, fixtureOrg: FixtureOrg): void {
    for (const item of fixtureOrg.recordings ?? []) data.putRecording(structuredClone(item));
    // The organization's stored recording config; a storage secret a hand-written document carries is dropped.
    data.recordingConfig = recordingConfigWithoutSecrets(fixtureOrg.recording_config ?? null);
  }
}
