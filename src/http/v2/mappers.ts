// Internal models → v2 wire shapes (snake_case, ISO times).
import type { z } from 'zod';
import { isoOrNull, toIso } from '../../core/clock.js';
import { liveMsAt, wireStatus } from '../../domain/livestreams/livestream-machine.js';
import type { MediaLinks } from '../../domain/media/media-links.js';
import type { Livestream, Meeting, Participant, ReasonCaller, Recording, StorageConfig } from '../../domain/models.js';
import { DEFAULT_AI_CONFIG, DEFAULT_RECORDING_CONFIG } from '../../domain/recordings/recording-config.js';
import type { Page } from '../../domain/paging.js';
import type {
  activeLivestreamSchema,
  callerSchema,
  livestreamSchema,
  meetingSchema,
  participantSchema,
  recordingMeetingSchema,
  recordingSchema,
  removedParticipantSchema,
  storageConfigSchema,
} from './schemas.js';

/** Drops the keys whose value is null: production types them as non-nullable, so unknown means absent. */
function withoutNulls<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], null> | undefined } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as { [K in keyof T]: Exclude<T[K], null> | undefined };
}

export function ok<T>(data: T, status = 200) {
  return { status, body: { success: true as const, data } };
}

/** A page's `paging` object, beside `data` or (where production nests lists) inside it. */
export function pagingDto(page: Page<unknown>) {
  return { total_count: page.total, start_offset: page.startOffset, end_offset: page.endOffset };
}

export function paged<T, D>(page: Page<T>, map: (item: T) => D) {
  return { status: 200, body: { success: true as const, data: page.items.map(map), paging: pagingDto(page) } };
}

export function meetingDto(m: Meeting): z.infer<ReturnType<typeof meetingSchema>> {
  return {
    id: m.id,
    ...(m.title === null ? {} : { title: m.title }),
    preferred_region: m.preferredRegion,
    waiting_room: m.waitingRoom,
    record_on_start: m.recordOnStart,
    live_stream_on_start: m.liveStreamOnStart,
    persist_chat: m.persistChat,
    summarize_on_end: m.summarizeOnEnd,
    status: m.status,
    recording_config: m.recordingConfig ?? DEFAULT_RECORDING_CONFIG,
    ai_config: m.aiConfig ?? DEFAULT_AI_CONFIG,
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
  };
}

export function recordingMeetingDto(m: Meeting): z.infer<ReturnType<typeof recordingMeetingSchema>> {
  return {
    id: m.id,
    ...(m.title === null ? {} : { title: m.title }),
    waiting_room: m.waitingRoom,
    record_on_start: m.recordOnStart,
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
  };
}

/** Both spellings of the client id are emitted: clients written against either spelling keep working. */
export function participantDto(p: Participant): z.infer<ReturnType<typeof participantSchema>> {
  return {
    id: p.id,
    name: p.name,
    picture: p.picture,
    custom_participant_id: p.customParticipantId,
    client_specific_id: p.customParticipantId,
    preset_name: p.presetName,
    preset_id: p.presetId,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
  };
}

export function removedParticipantDto(p: Participant): z.infer<ReturnType<typeof removedParticipantSchema>> {
  return {
    custom_participant_id: p.customParticipantId,
    client_specific_id: p.customParticipantId,
    preset_id: p.presetId,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
  };
}

/**
 * Production's caller has no null and no SYSTEM type: the emulator's own starts and stops
 * (record_on_start, the empty meeting, max_seconds, failures) show as the organization, with
 * a name only where one says why (max_seconds).
 */
function callerDto(c: ReasonCaller['caller']): z.infer<ReturnType<typeof callerSchema>> {
  return {
    type: c.type === 'USER' ? 'USER' : 'ORGANIZATION',
    ...(c.name === null ? {} : { name: c.name }),
    ...(c.user_id === null ? {} : { user_Id: c.user_id }),
  };
}

function reasonDto<R extends string>(r: ReasonCaller): { reason: R; caller: z.infer<ReturnType<typeof callerSchema>> } {
  return { reason: r.reason as R, caller: callerDto(r.caller) };
}

function storageConfigDto(sc: StorageConfig): z.infer<ReturnType<typeof storageConfigSchema>> {
  const { authMethod, ...rest } = sc;
  return withoutNulls({ ...rest, auth_method: authMethod }) as z.infer<ReturnType<typeof storageConfigSchema>>;
}

export function recordingDto(r: Recording): z.infer<ReturnType<typeof recordingSchema>> {
  return {
    id: r.id,
    meeting_id: r.meetingId,
    download_url: r.downloadUrl,
    download_url_expiry: isoOrNull(r.downloadUrlExpiry),
    audio_download_url: r.audioDownloadUrl,
    file_size: r.fileSize,
    session_id: r.sessionId,
    output_file_name: r.outputFileName,
    status: r.status,
    invoked_time: toIso(r.invokedTime),
    started_time: isoOrNull(r.startedTime),
    stopped_time: isoOrNull(r.stoppedTime),
    ...(r.recordingDuration === null ? {} : { recording_duration: r.recordingDuration }),
    start_reason: reasonDto(r.startReason),
    ...(r.stopReason === null ? {} : { stop_reason: reasonDto(r.stopReason) }),
    storage_config: r.storageConfig === null ? null : storageConfigDto(r.storageConfig),
  };
}

export function livestreamDto(l: Livestream, media: MediaLinks): z.infer<ReturnType<typeof livestreamSchema>> {
  return {
    id: l.id,
    meeting_id: l.meetingId,
    status: wireStatus(l.state),
    name: l.name,
    ingest_server: media.ingestServer(),
    stream_key: l.streamKey,
    playback_url: media.playbackUrl(l.id),
    disabled: l.disabled,
    created_at: toIso(l.createdAt),
    updated_at: toIso(l.updatedAt),
  };
}

export function activeLivestreamDto(l: Livestream, media: MediaLinks, now: number, viewerSeconds: number): z.infer<ReturnType<typeof activeLivestreamSchema>> {
  return { ...livestreamDto(l, media), ingest_seconds: Math.floor(liveMsAt(l, now) / 1000), viewer_seconds: viewerSeconds };
}
