// Recording configuration: what a meeting keeps of its `recording_config`, the defaults that
// apply when it has none, and how a recording's settings are decided from the start request,
// the meeting's config and those defaults (the start request wins, then the meeting).
//
// A meeting keeps its recording config as the client gave it (known fields only, snake_case),
// because it is echoed back as given; it is read here, in one place.
import type { RecordingAudio, RecordingVideo, StorageConfig, Watermark } from '../models.js';
import { holdSecretsOn, type StorageSecrets } from './storage-secrets.js';

/**
 * Storage credentials are write-only: accepted on input, taken off the config when the request is
 * parsed and kept only in the secret vault (storage-secrets.ts), so no answer, export, journal,
 * log or webhook can ever show them.
 */
export const STORAGE_SECRET_FIELDS = ['access_key', 'secret_key', 'secret', 'password', 'private_key'] as const;
type StorageSecret = (typeof STORAGE_SECRET_FIELDS)[number];

export function withoutStorageSecrets<T extends Record<string, unknown>>(config: T): Omit<T, StorageSecret> {
  const out: Record<string, unknown> = { ...config };
  for (const key of STORAGE_SECRET_FIELDS) delete out[key];
  return out as Omit<T, StorageSecret>;
}

/**
 * A storage config as the request parse returns it: without its secrets, which ride along out of
 * sight (storage-secrets.ts) until the service that keeps the config puts them in the vault.
 */
export function withStorageSecretsHeldApart<T extends Record<string, unknown>>(config: T): Omit<T, StorageSecret> {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const secrets: StorageSecrets = {
    accessKey: str(config.access_key),
    // Production documents `secret`; the other spelling is accepted as well (the first one given wins).
    secret: str(config.secret) ?? str(config.secret_key),
    password: str(config.password),
    privateKey: str(config.private_key),
  };
  return holdSecretsOn(withoutStorageSecrets(config), secrets);
}

/** A meeting's recording config without the secrets of its storage config (also for imported state). */
export function recordingConfigWithoutSecrets(config: Record<string, unknown> | null): Record<string, unknown> | null {
  if (config === null) return null;
  const storage = config.storage_config;
  if (storage === null || typeof storage !== 'object' || Array.isArray(storage)) return config;
  return { ...config, storage_config: withoutStorageSecrets(storage as Record<string, unknown>) };
}

export const DEFAULT_MAX_SECONDS = 86_400;

/**
 * The recording config a meeting shows when none was set: the documented defaults of each
 * field (no prefix, no external storage, uploads to the service's own bucket).
 */
export const DEFAULT_RECORDING_CONFIG: Readonly<Record<string, unknown>> = Object.freeze({
  max_seconds: DEFAULT_MAX_SECONDS,
  video_config: { codec: 'H264', width: 1280, height: 720, export_file: true },
  audio_config: { codec: 'AAC', channel: 'stereo', export_file: true },
  storage_config: null,
  dyte_bucket_config: { enabled: true },
});

/** The AI config a meeting shows when none was set: the documented defaults of each field. */
export const DEFAULT_AI_CONFIG: Readonly<Record<string, unknown>> = Object.freeze({
  transcription: { keywords: [], language: 'en-US', profanity_filter: false },
  summarization: { word_limit: 500, text_format: 'markdown', summary_type: 'general' },
});

/** The settings one level (start request or meeting) gives; undefined = that level says nothing. */
export interface RecordingOptions {
  fileNamePrefix?: string;
  maxSeconds?: number;
  storageConfig?: Omit<StorageConfig, 'id'> | null;
  /** `dyte_bucket_config.enabled`: false → no download links. */
  uploadToBucket?: boolean;
  /** `audio_config.export_file`: false → no audio download link. */
  exportAudio?: boolean;
  /** `video_config`, field by field (a field left out is left to the next level). */
  video?: Partial<RecordingVideo>;
  /** `audio_config`'s codec and channel. */
  audio?: Partial<RecordingAudio>;
}

export type ResolvedRecordingOptions = Required<Omit<RecordingOptions, 'fileNamePrefix' | 'video' | 'audio'>> & {
  fileNamePrefix: string | undefined;
  video: RecordingVideo;
  audio: RecordingAudio;
};

/** The documented defaults: H.264 at 1280×720 with its file, AAC in stereo. */
export const DEFAULT_VIDEO: Readonly<RecordingVideo> = Object.freeze({ codec: 'H264', width: 1280, height: 720, watermark: null, exportFile: true });
export const DEFAULT_AUDIO: Readonly<RecordingAudio> = Object.freeze({ codec: 'AAC', channel: 'stereo' });

/** A `video_config` as given on the wire (already validated) as one level's settings. */
export function videoOptionsFrom(vc: Record<string, unknown> | undefined): Partial<RecordingVideo> | undefined {
  if (!vc) return undefined;
  const out: Partial<RecordingVideo> = {};
  if (vc.codec === 'H264' || vc.codec === 'VP8') out.codec = vc.codec;
  if (typeof vc.width === 'number') out.width = vc.width;
  if (typeof vc.height === 'number') out.height = vc.height;
  if (typeof vc.export_file === 'boolean') out.exportFile = vc.export_file;
  const wm = objectAt(vc, 'watermark');
  if (wm && typeof wm.url === 'string') {
    const size = objectAt(wm, 'size');
    out.watermark = {
      url: wm.url,
      width: typeof size?.width === 'number' ? size.width : null,
      height: typeof size?.height === 'number' ? size.height : null,
      position: (typeof wm.position === 'string' ? wm.position : 'left top') as Watermark['position'],
    };
  }
  return out;
}

/** An `audio_config` as given on the wire (already validated) as one level's settings. */
export function audioOptionsFrom(ac: Record<string, unknown> | undefined): Partial<RecordingAudio> | undefined {
  if (!ac) return undefined;
  const out: Partial<RecordingAudio> = {};
  if (ac.codec === 'AAC' || ac.codec === 'MP3') out.codec = ac.codec;
  if (ac.channel === 'mono' || ac.channel === 'stereo') out.channel = ac.channel;
  return out;
}

const objectAt = (o: Record<string, unknown>, key: string): Record<string, unknown> | undefined => {
  const v = o[key];
  // Stryker disable next-line ConditionalExpression: null and undefined read the same: storage_config is checked for null first, the rest is read through ?.
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
};
const stringOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A storage config given on the wire (secrets already dropped) as a recording keeps it. */
export function storageConfigFrom(sc: Record<string, unknown>): Omit<StorageConfig, 'id'> {
  return {
    type: sc.type as StorageConfig['type'],
    region: stringOrNull(sc.region),
    bucket: stringOrNull(sc.bucket),
    path: stringOrNull(sc.path),
    host: stringOrNull(sc.host),
    username: stringOrNull(sc.username),
    port: typeof sc.port === 'number' ? sc.port : null,
    authMethod: sc.auth_method === 'KEY' || sc.auth_method === 'PASSWORD' ? sc.auth_method : null,
  };
}

/** What a meeting's recording config (as kept) says about the recordings it starts. */
export function meetingRecordingOptions(config: Record<string, unknown> | null): RecordingOptions {
  if (config === null) return {};
  const storage = config.storage_config;
  return {
    fileNamePrefix: typeof config.file_name_prefix === 'string' ? config.file_name_prefix : undefined,
    maxSeconds: typeof config.max_seconds === 'number' ? config.max_seconds : undefined,
    // Stryker disable next-line ConditionalExpression: null and undefined both end as no storage config in the one caller (start ?? meeting ?? null).
    storageConfig: storage === null ? null : objectAt(config, 'storage_config') && storageConfigFrom(storage as Record<string, unknown>),
    uploadToBucket: objectAt(config, 'dyte_bucket_config')?.enabled as boolean | undefined,
    exportAudio: objectAt(config, 'audio_config')?.export_file as boolean | undefined,
    video: videoOptionsFrom(objectAt(config, 'video_config')),
    audio: audioOptionsFrom(objectAt(config, 'audio_config')),
  };
}

/**
 * The start request's settings win over the meeting's, which win over the organization's stored
 * config, which wins over the defaults (production's precedence order of recording configs).
 */
export function resolveRecordingOptions(start: RecordingOptions, meeting: RecordingOptions, org: RecordingOptions = {}): ResolvedRecordingOptions {
  return {
    fileNamePrefix: start.fileNamePrefix ?? meeting.fileNamePrefix ?? org.fileNamePrefix,
    maxSeconds: start.maxSeconds ?? meeting.maxSeconds ?? org.maxSeconds ?? DEFAULT_MAX_SECONDS,
    storageConfig: start.storageConfig ?? meeting.storageConfig ?? org.storageConfig ?? null,
    uploadToBucket: start.uploadToBucket ?? meeting.uploadToBucket ?? org.uploadToBucket ?? true,
    exportAudio: start.exportAudio ?? meeting.exportAudio ?? org.exportAudio ?? true,
    video: { ...DEFAULT_VIDEO, ...defined(org.video), ...defined(meeting.video), ...defined(start.video) },
    audio: { ...DEFAULT_AUDIO, ...defined(org.audio), ...defined(meeting.audio), ...defined(start.audio) },
  };
}

/** Which level's storage config a recording takes (the same order as resolveRecordingOptions). */
export function storageLevel(start: RecordingOptions, meeting: RecordingOptions, org: RecordingOptions = {}): 'start' | 'meeting' | 'org' | null {
  if (start.storageConfig) return 'start';
  if (meeting.storageConfig) return 'meeting';
  if (org.storageConfig) return 'org';
  return null;
}

/** The fields that are set: a level that leaves one out leaves it to the level below. */
function defined<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
