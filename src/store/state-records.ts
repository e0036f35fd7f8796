// Schemas of the records a state export holds (GET|PUT /_emulator/state, --state-file). They are
// the internal models as they are kept (camelCase, epoch ms), so an export → import → export
// round trip is byte-identical. A state document is a fixtures file with these extra sections.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import {
  AUDIO_CODECS,
  RECORDING_STATUSES,
  REGIONS,
  SESSION_LIMITS,
  STORAGE_TYPES,
  VIDEO_CODECS,
  WATERMARK_POSITIONS,
  WEBHOOK_APIS,
  WEBHOOK_EVENTS,
} from '../domain/models.js';
import { DEFAULT_AUDIO, DEFAULT_VIDEO } from '../domain/recordings/recording-config.js';

const ms = lazy(() => z.number().int().min(0).max(8.64e15));
const msOrNull = lazy(() => ms().nullable());
const id = lazy(() => z.uuid());
const text = (max: number) => z.string().max(max);

const session = lazy(() => z.object({ id: z.string().min(1).max(100), startedAt: ms(), endedAt: msOrNull() }).strict());

export const meetingRecord = lazy(() =>
  z
    .object({
      id: id(),
      orgId: id(),
      title: text(1024).nullable(),
      preferredRegion: z.enum(REGIONS).nullable(),
      waitingRoom: z.boolean(),
      recordOnStart: z.boolean(),
      liveStreamOnStart: z.boolean(),
      persistChat: z.boolean(),
      summarizeOnEnd: z.boolean(),
      status: z.enum(['ACTIVE', 'INACTIVE']),
      recordingConfig: z.looseObject({}).nullable(),
      // Absent from documents written before meetings kept an AI config.
      aiConfig: z.looseObject({}).nullable().default(null),
      createdAt: ms(),
      updatedAt: ms(),
      session: session().nullable(),
      // Only breakout rooms carry it.
      parentMeetingId: id().optional(),
    })
    .strict(),
);

export const participantRecord = lazy(() =>
  z
    .object({
      id: id(),
      orgId: id(),
      meetingId: id(),
      name: text(255).nullable(),
      picture: text(2048).nullable(),
      customParticipantId: text(255),
      presetId: id(),
      presetName: text(255),
      createdAt: ms(),
      updatedAt: ms(),
      joinedAt: msOrNull(),
    })
    .strict(),
);

const reason = lazy(() =>
  z
    .object({
      reason: text(100),
      caller: z.object({ name: text(255).nullable(), type: z.enum(['ORGANIZATION', 'USER', 'SYSTEM']), user_id: text(100).nullable() }).strict(),
    })
    .strict(),
);

export const recordingRecord = lazy(() =>
  z
    .object({
      id: id(),
      orgId: id(),
      meetingId: id(),
      status: z.enum(RECORDING_STATUSES),
      outputFileName: text(300),
      invokedTime: ms(),
      startedTime: msOrNull(),
      stoppedTime: msOrNull(),
      sessionId: text(100).nullable(),
      fileSize: z.number().int().min(0).nullable(),
      downloadUrl: text(4096).nullable(),
      audioDownloadUrl: text(4096).nullable(),
      downloadUrlExpiry: msOrNull(),
      recordingDuration: z.number().int().min(0).nullable(),
      storageConfig: z
        .object({
          id: id(),
          type: z.enum(STORAGE_TYPES),
          region: text(255).nullable(),
          bucket: text(255).nullable(),
          path: text(2048).nullable(),
          host: text(255).nullable(),
          username: text(255).nullable(),
          port: z.number().int().min(0).max(65535).nullable(),
          authMethod: z.enum(['KEY', 'PASSWORD']).nullable().default(null),
        })
        .strict()
        .nullable(),
      startReason: reason(),
      stopReason: reason().nullable(),
      maxSeconds: z.number().int().min(60).max(86_400),
      allowMultipleRecordings: z.boolean(),
      // Absent from documents written before recordings applied these settings: the defaults.
      uploadToBucket: z.boolean().default(true),
      exportAudio: z.boolean().default(true),
      // Absent from documents written before recordings were made as asked: a composite with the defaults.
      kind: z.enum(['composite', 'track']).default('composite'),
      video: z
        .object({
          codec: z.enum(VIDEO_CODECS),
          width: z.number().int().min(1).max(1920),
          height: z.number().int().min(1).max(1920),
          watermark: z
            .object({
              url: text(2048),
              width: z.number().int().min(1).nullable(),
              height: z.number().int().min(1).nullable(),
              position: z.enum(WATERMARK_POSITIONS),
            })
            .strict()
            .nullable(),
          exportFile: z.boolean(),
        })
        .strict()
        .default({ ...DEFAULT_VIDEO }),
      audio: z
        .object({ codec: z.enum(AUDIO_CODECS), channel: z.enum(['mono', 'stereo']) })
        .strict()
        .default({ ...DEFAULT_AUDIO }),
      recordedMs: ms(),
      spanStartedAt: msOrNull(),
      errorReason: text(1000).nullable(),
    })
    .strict(),
);

export const livestreamRecord = lazy(() =>
  z
    .object({
      id: id(),
      orgId: id(),
      meetingId: id().nullable(),
      state: z.enum(['OFFLINE', 'LIVE', 'IDLE', 'STOPPED', 'ERRORED']),
      name: text(255).nullable(),
      streamKey: text(100),
      disabled: z.boolean(),
      createdAt: ms(),
      updatedAt: ms(),
      liveMs: ms(),
      liveSince: msOrNull(),
      stoppedAt: msOrNull(),
    })
    .strict(),
);

export const livestreamSessionRecord = lazy(() =>
  z
    .object({
      id: id(),
      orgId: id(),
      livestreamId: id(),
      meetingSessionId: text(100).nullable(),
      invokedTime: msOrNull(),
      startedTime: ms(),
      stoppedTime: msOrNull(),
      errMessage: text(1000).nullable(),
      createdAt: ms(),
      updatedAt: ms(),
    })
    .strict(),
);

/** An organization's profile (what /v2/orgs shows besides id, name and key). */
export const orgProfileRecord = lazy(() =>
  z
    .object({
      contact: text(200),
      website: text(2048),
      preferredRegion: z.enum(REGIONS),
      featureFlags: z.array(text(100)).max(50),
      createdAt: ms(),
      updatedAt: ms(),
    })
    .strict(),
);
// --- session history ---
export const sessionRecord = lazy(() =>
  z
    .object({
      id: z.string().min(1).max(100),
      orgId: id(),
      meetingId: id(),
      startedAt: ms(),
      endedAt: msOrNull(),
      updatedAt: ms(),
      endReason: z.enum(['ALL_PARTICIPANTS_LEFT', 'HOST_ENDED_MEETING']).nullable(),
      maxConcurrent: z.number().int().min(0),
      participants: z.array(
        z
          .object({
            participantId: id(),
            customParticipantId: text(255),
            name: text(255).nullable(),
            picture: text(2048).nullable(),
            presetName: text(255),
            spans: z
              .array(z.object({ joinedAt: ms(), leftAt: msOrNull() }).strict())
              .min(1)
              .max(1_000_000),
            mutedAt: msOrNull(),
            allowUnmute: z.boolean(),
            updatedAt: ms(),
          })
          .strict(),
      ),
      chat: z
        .array(
          z
            .object({
              id: z.string().min(1).max(100),
              participantId: id(),
              displayName: text(255).nullable(),
              payloadType: z.enum(['TEXT_MESSAGE', 'IMAGE_MESSAGE', 'FILE_MESSAGE', 'CUSTOM_MESSAGE']),
              payload: text(SESSION_LIMITS.textChars),
              createdAt: ms(),
              // Absent in documents saved before private messages, channels, pins and edits were kept.
              // The sender and up to chatTargets others.
              targets: z
                .array(id())
                .max(SESSION_LIMITS.chatTargets + 1)
                .default([]),
              channelId: z.string().min(1).max(100).nullable().default(null),
              channelIndex: z.number().int().min(1).nullable().default(null),
              pinned: z.boolean().default(false),
              editedAt: msOrNull().default(null),
            })
            .strict(),
        )
        .max(SESSION_LIMITS.chatMessages),
      channels: z
        .array(
          z
            .object({
              id: z.string().min(1).max(100),
              name: text(SESSION_LIMITS.channelNameChars),
              pictureUrl: text(SESSION_LIMITS.channelPictureChars).nullable(),
              visibility: text(SESSION_LIMITS.channelVisibilityChars),
              isDirectMessage: z.boolean(),
              members: z.array(id()).max(SESSION_LIMITS.channelMembers),
              createdBy: id(),
              createdAt: ms(),
              updatedAt: ms(),
              lastRead: z.record(id(), z.number().int().min(0)),
            })
            .strict(),
        )
        .max(SESSION_LIMITS.chatChannels)
        .default([]),
      transcript: z
        .array(
          z
            .object({
              at: ms(),
              participantId: id(),
              customParticipantId: text(255),
              name: text(255).nullable(),
              text: text(SESSION_LIMITS.textChars),
              // Absent in documents saved before it was kept: such a line counts as not heard live.
              livePeerId: text(100).nullable().default(null),
            })
            .strict(),
        )
        .max(SESSION_LIMITS.transcriptLines),
      polls: z
        .array(
          z
            .object({
              id: z.string().min(1).max(100),
              question: text(SESSION_LIMITS.pollQuestionChars),
              options: z.array(text(SESSION_LIMITS.pollOptionChars)).min(1).max(SESSION_LIMITS.pollOptions),
              anonymous: z.boolean(),
              hideVotes: z.boolean(),
              createdBy: text(255),
              createdAt: ms(),
              // Absent in documents saved before votes were kept.
              votes: z
                .array(
                  z
                    .object({
                      participantId: id(),
                      name: text(255).nullable(),
                      option: z
                        .number()
                        .int()
                        .min(0)
                        .max(SESSION_LIMITS.pollOptions - 1),
                      at: ms(),
                    })
                    .strict(),
                )
                .max(100_000)
                .default([]),
            })
            .strict(),
        )
        .max(SESSION_LIMITS.polls),
      summary: z
        .object({ text: text(100_000), format: z.enum(['plain_text', 'markdown']), generatedAt: ms() })
        .strict()
        .nullable(),
    })
    .strict(),
);
// --- end of session history ---

export const jobRecord = lazy(() =>
  z
    .object({
      key: text(300),
      at: ms(),
      kind: text(100),
      payload: z.record(z.string().max(100), z.union([z.string().max(300), z.number(), z.boolean(), z.null()])),
    })
    .strict(),
);

export const deliveryRecord = lazy(() =>
  z
    .object({
      id: z.string().min(1).max(100),
      orgId: id().nullable(),
      webhookId: z.string().min(1).max(100),
      /** Which API's headers the attempts carry; v2 when absent (states saved before it existed). */
      api: z.enum(WEBHOOK_APIS).optional(),
      event: z.enum(WEBHOOK_EVENTS),
      url: text(2048),
      // Every attempt sends these bytes and the delivery log shows them parsed: a JSON document.
      body: z
        .string()
        .max(1024 * 1024)
        .refine(isJsonText, 'must be a JSON document'),
      status: z.enum(['pending', 'delivered', 'failed']),
      attempts: z
        .array(
          z
            .object({
              at: ms(),
              statusCode: z.number().int().nullable(),
              error: text(2000).nullable(),
              durationMs: z.number().min(0),
              trigger: z.enum(['initial', 'retry', 'redeliver']),
            })
            .strict(),
        )
        // Redelivery has no limit, so neither has this: the import's body size bounds it.
        .max(1_000_000),
      nextAttemptAt: msOrNull(),
      retries: z.number().int().min(0).max(5),
      failureReason: text(2000).nullable(),
      /** Absent in states saved before deliveries had notes. */
      note: text(2000).nullable().optional(),
      createdAt: ms(),
    })
    .strict(),
);

const delayMs = lazy(() =>
  z
    .number()
    .int()
    .min(0)
    .max(365 * 24 * 3600 * 1000),
);
export const simulatorPolicyRecord = lazy(() =>
  z
    .object({
      recording: z
        .object({
          mode: z.enum(['auto', 'manual']),
          startDelayMs: delayMs(),
          uploadBaseMs: delayMs(),
          uploadMsPerRecordedMinute: delayMs(),
          failNext: z.number().int().min(0).max(1_000_000),
          failAt: z.enum(['start', 'upload']),
        })
        .strict(),
      livestream: z
        .object({
          mode: z.enum(['auto', 'manual']),
          goLiveDelayMs: delayMs(),
          viewers: z.number().int().min(0).max(1_000_000),
          failNext: z.number().int().min(0).max(1_000_000),
        })
        .strict(),
    })
    .strict(),
);

/** What the clock, the id generator, the scheduler, the outbox and the simulator hold. */
export const runtimeRecord = lazy(() =>
  z
    .object({
      clock: z.object({ now: z.iso.datetime(), mode: z.enum(['real', 'manual']) }).strict(),
      ids_position: z.number().int().min(0),
      jobs: z.array(jobRecord()),
      deliveries: z.array(deliveryRecord()),
      simulator: simulatorPolicyRecord(),
    })
    .strict(),
);

export type JobRecord = z.infer<ReturnType<typeof jobRecord>>;
export type RuntimeRecord = z.infer<ReturnType<typeof runtimeRecord>>;

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
