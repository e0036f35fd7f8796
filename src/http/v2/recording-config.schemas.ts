// Wire schemas of the configs a meeting or a recording start carries: storage, video, audio,
// bucket, livestreaming, interactive, recording and AI configs, with the enums and ranges the
// production service documents (a value outside them is a 400). Unknown keys are dropped.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { STORAGE_TYPES } from '../../domain/models.js';
import { withStorageSecretsHeldApart } from '../../domain/recordings/recording-config.js';
import { LIMITS } from '../limits.js';

const httpUrl = lazy(() => z.url({ protocol: /^https?$/ }));

// --- storage ------------------------------------------------------------------------------

const storageFields = lazy(() => ({
  type: z.enum(STORAGE_TYPES),
  region: z.string().max(LIMITS.nameMax).optional(),
  bucket: z.string().max(LIMITS.nameMax).optional(),
  path: z.string().max(LIMITS.urlMax).optional(),
  auth_method: z.enum(['KEY', 'PASSWORD']).optional(),
  host: z.string().max(LIMITS.nameMax).optional(),
  username: z.string().max(LIMITS.nameMax).optional(),
  // Production's own example sends 0 (its type is a plain number).
  port: z.number().int().min(0).max(65535).optional(),
}));

/**
 * A storage config as sent: its secrets (access_key, secret_key also spelled secret, password,
 * private_key) are accepted and taken off the config by the parse itself; they ride along out of
 * sight until the service that keeps the config puts them in the secret vault.
 */
export const storageConfigBody = lazy(() =>
  z
    .object({
      ...storageFields(),
      access_key: z.string().max(LIMITS.secretMax).optional(),
      secret_key: z.string().max(LIMITS.secretMax).optional(),
      secret: z.string().max(LIMITS.secretMax).optional(),
      password: z.string().max(LIMITS.secretMax).optional(),
      private_key: z.string().max(LIMITS.secretMax).optional(),
    })
    .transform(withStorageSecretsHeldApart),
);

/** A storage config as a meeting shows it: what was given, never a secret. */
const storedStorageConfigSchema = lazy(() => z.object(storageFields()));

// --- video, audio and the rest ---------------------------------------------------------------

export const videoConfigBody = lazy(() =>
  z.object({
    codec: z.enum(['H264', 'VP8']).optional(),
    width: z.number().int().min(1).max(1920).optional(),
    height: z.number().int().min(1).max(1920).optional(),
    watermark: z
      .object({
        url: httpUrl().max(LIMITS.urlMax).optional(),
        size: z.object({ width: z.number().int().min(1).optional(), height: z.number().int().min(1).optional() }).optional(),
        position: z.enum(['left top', 'right top', 'left bottom', 'right bottom']).optional(),
      })
      .optional(),
    export_file: z.boolean().optional(),
  }),
);

export const audioConfigBody = lazy(() =>
  z.object({
    codec: z.enum(['MP3', 'AAC']).optional(),
    channel: z.enum(['mono', 'stereo']).optional(),
    export_file: z.boolean().optional(),
  }),
);

export const dyteBucketConfigBody = lazy(() => z.object({ enabled: z.boolean() }));

export const liveStreamingConfigBody = lazy(() => z.object({ rtmp_url: z.url().max(LIMITS.urlMax).optional() }));

export const interactiveConfigBody = lazy(() => z.object({ type: z.enum(['ID3']).optional() }));

export const fileNamePrefix = lazy(() => z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1 to 100 letters, digits, "_" or "-"'));

type VideoAndAudio = {
  video_config?: { codec?: string; width?: number; height?: number; watermark?: { size?: { width?: number; height?: number } } };
  audio_config?: { codec?: string };
};

/**
 * What one request's video and audio configs must agree on. With VP8 video the audio is Vorbis,
 * and production does not let the audio codec be changed then: VP8 and MP3 together are refused
 * rather than half obeyed. A watermark is drawn inside the picture: no wider or taller than it.
 */
export function recordingConfigRules(b: VideoAndAudio, ctx: z.RefinementCtx): void {
  if (b.video_config?.codec === 'VP8' && b.audio_config?.codec === 'MP3')
    ctx.addIssue({
      code: 'custom',
      path: ['audio_config', 'codec'],
      message: 'cannot be MP3 with video_config.codec VP8 (a VP8 recording carries Vorbis audio)',
    });
  const size = b.video_config?.watermark?.size;
  for (const side of ['width', 'height'] as const) {
    const limit = b.video_config?.[side] ?? (side === 'width' ? 1280 : 720);
    if ((size?.[side] ?? 0) > limit)
      ctx.addIssue({ code: 'custom', path: ['video_config', 'watermark', 'size', side], message: `must be at most the video's ${side} (${limit})` });
  }
}

const recordingConfigFields = lazy(() => ({
  max_seconds: z.number().int().min(60).max(86_400).optional(),
  file_name_prefix: fileNamePrefix().optional(),
  video_config: videoConfigBody().optional(),
  audio_config: audioConfigBody().optional(),
  dyte_bucket_config: dyteBucketConfigBody().optional(),
  live_streaming_config: liveStreamingConfigBody().optional(),
}));

/** A meeting's recording_config as sent (storage secrets dropped by the parse). */
export const recordingConfigBody = lazy(() =>
  z.object({ ...recordingConfigFields(), storage_config: storageConfigBody().nullable().optional() }).superRefine(recordingConfigRules),
);

/** A meeting's recording_config as answered: what was set, or the defaults when nothing was. */
export const recordingConfigSchema = lazy(() => z.object({ ...recordingConfigFields(), storage_config: storedStorageConfigSchema().nullable().optional() }));

// --- AI -------------------------------------------------------------------------------------

const aiConfigFields = lazy(() => ({
  transcription: z
    .object({
      keywords: z.array(z.string().max(LIMITS.nameMax)).max(LIMITS.transcriptionKeywordsMax).optional(),
      language: z.enum(['en-US', 'en-IN', 'de', 'hi', 'sv', 'ru', 'pl', 'el', 'fr', 'nl']).optional(),
      profanity_filter: z.boolean().optional(),
    })
    .optional(),
  summarization: z
    .object({
      word_limit: z.number().int().min(150).max(1000).optional(),
      text_format: z.enum(['plain_text', 'markdown']).optional(),
      summary_type: z
        .enum(['general', 'team_meeting', 'sales_call', 'client_check_in', 'interview', 'daily_standup', 'one_on_one_meeting', 'lecture', 'code_review'])
        .optional(),
    })
    .optional(),
}));

export const aiConfigBody = lazy(() => z.object(aiConfigFields()));
export const aiConfigSchema = lazy(() => z.object(aiConfigFields()));
