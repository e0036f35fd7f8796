// Internal, version-neutral models. Times are epoch ms; the wire shapes (snake_case v2,
// camelCase webhooks, the v1 product) are made only by mappers at the edges.

import type { PresetDocument } from './presets/preset-document.js';

export const REGIONS = ['ap-south-1', 'ap-southeast-1', 'us-east-1', 'eu-central-1'] as const;
export type Region = (typeof REGIONS)[number];

export interface Organization {
  id: string;
  name: string;
  apiKey: string;
}

/**
 * What the partner API (/v2/orgs) shows of an organization besides its id, name and key. Kept
 * next to the organization (OrgData.profile), not in it: events and webhooks carry the
 * organization, and none of this belongs in them.
 */
export interface OrgProfile {
  contact: string;
  website: string;
  preferredRegion: Region;
  featureFlags: string[];
  createdAt: number;
  updatedAt: number;
}

/** A preset: production's whole document (domain/presets/preset-document.ts), its id, name and times. */
export interface Preset extends PresetDocument {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
}

export type MeetingStatus = 'ACTIVE' | 'INACTIVE';

/** A session is one period during which someone is in the meeting. */
export interface MeetingSession {
  id: string;
  startedAt: number;
  endedAt: number | null;
}

export interface Meeting {
  id: string;
  orgId: string;
  title: string | null;
  preferredRegion: Region | null;
  waitingRoom: boolean;
  recordOnStart: boolean;
  liveStreamOnStart: boolean;
  persistChat: boolean;
  summarizeOnEnd: boolean;
  status: MeetingStatus;
  /** As the client gave it (known fields, snake_case, storage secrets dropped); null = none set. */
  recordingConfig: Record<string, unknown> | null;
  /** `ai_config` as the client gave it (transcription, summarization); null = none set. */
  aiConfig: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
  /** The current session, or the last one once it ended. */
  session: MeetingSession | null;
  /** A breakout room (connected meeting): the meeting it was opened from. Absent for any other meeting. */
  parentMeetingId?: string;
}

// --- session history -----------------------------------------------------------------------
// A session record is kept for every session a meeting has had (GET /v2/sessions...), next to the
// meeting's pointer to its current or last session (Meeting.session).

/** One stay of a participant in a session: from a join to the leave (null while still in). */
export interface SessionSpan {
  joinedAt: number;
  leftAt: number | null;
}

/** A participant as a session saw them: every stay, and the host's mutes. */
export interface SessionParticipant {
  /** The participant id (also the webhooks' `peerId`: one peer per participant per session). */
  participantId: string;
  customParticipantId: string;
  /** The display name at the first join. */
  name: string | null;
  picture: string | null;
  presetName: string;
  spans: SessionSpan[];
  /** Set when the host muted them (POST …/active-session/mute or mute-all). */
  mutedAt: number | null;
  /** Whether they may unmute themselves after that mute. */
  allowUnmute: boolean;
  updatedAt: number;
}

/** A chat message's kind, as the chat export names it (the SDK's TEXT, IMAGE, FILE and CUSTOM). */
export type ChatPayloadType = 'TEXT_MESSAGE' | 'IMAGE_MESSAGE' | 'FILE_MESSAGE' | 'CUSTOM_MESSAGE';

export interface SessionChatMessage {
  id: string;
  participantId: string;
  displayName: string | null;
  payloadType: ChatPayloadType;
  /** The text; an image's link; a file's `{"link","name","size"}`; a custom message's JSON. */
  payload: string;
  createdAt: number;
  /** A private message: the participants it is for, the sender among them; empty for everyone. */
  targets: string[];
  /** A channel's message (the channel's members see it), or null. */
  channelId: string | null;
  /** Its place in its channel, from 1; null outside channels. */
  channelIndex: number | null;
  pinned: boolean;
  /** When its sender last edited it, or null. */
  editedAt: number | null;
}

/** A chat channel of the session (the Dyte SDK's meeting.chat.createChannel): its members chat apart. */
export interface SessionChatChannel {
  id: string;
  name: string;
  pictureUrl: string | null;
  /** As the SDK gives it (`public`, `private`). */
  visibility: string;
  isDirectMessage: boolean;
  /** Participant ids, in the order they were added. */
  members: string[];
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  /** Per member, the channel index of the last message they read. */
  lastRead: Record<string, number>;
}

export interface SessionTranscriptLine {
  at: number;
  participantId: string;
  customParticipantId: string;
  name: string | null;
  text: string;
  /**
   * The peer id the meeting's pages heard the line under as it was said (the speaker's page's, or
   * their participant id without one); null when the pages did not hear it (the speaker's preset
   * has no transcription_enabled).
   */
  livePeerId: string | null;
}

/** One participant's vote in a poll: the option's index, and their name as they voted. */
export interface SessionPollVote {
  participantId: string;
  name: string | null;
  option: number;
  at: number;
}

export interface SessionPoll {
  id: string;
  question: string;
  options: string[];
  anonymous: boolean;
  hideVotes: boolean;
  createdBy: string;
  createdAt: number;
  /** In the order they were cast; one per participant. */
  votes: SessionPollVote[];
}

export interface Session {
  id: string;
  orgId: string;
  meetingId: string;
  startedAt: number;
  endedAt: number | null;
  updatedAt: number;
  endReason: 'ALL_PARTICIPANTS_LEFT' | 'HOST_ENDED_MEETING' | null;
  /** The most participants present at once. */
  maxConcurrent: number;
  /** In the order they first joined. */
  participants: SessionParticipant[];
  chat: SessionChatMessage[];
  channels: SessionChatChannel[];
  transcript: SessionTranscriptLine[];
  polls: SessionPoll[];
  /** The summary of the transcript, once generated (on end or POST …/summary). */
  summary: { text: string; format: 'plain_text' | 'markdown'; generatedAt: number } | null;
}

/** Emulator limits on what one session keeps (docs/limits-and-decisions.md). */
export const SESSION_LIMITS = {
  chatMessages: 10_000,
  transcriptLines: 10_000,
  /** Lines one participant may say within one second of the emulator's clock (as a chat sender's pace is bounded). */
  transcriptLinesPerSecond: 10,
  /** Characters of a chat message or a transcript line. */
  textChars: 4000,
  polls: 100,
  pollQuestionChars: 1000,
  pollOptions: 100,
  pollOptionChars: 255,
  /** Recipients of one private message. */
  chatTargets: 100,
  chatChannels: 100,
  channelMembers: 500,
  channelNameChars: 255,
  /** Characters of a channel's picture link and of its visibility (`public`, `private`). */
  channelPictureChars: 2048,
  channelVisibilityChars: 50,
} as const;
// --- end of session history ---

export interface Participant {
  id: string;
  orgId: string;
  meetingId: string;
  name: string | null;
  picture: string | null;
  customParticipantId: string;
  presetId: string;
  presetName: string;
  createdAt: number;
  updatedAt: number;
  /** Scripted presence (control API): when the participant joined, null when absent. */
  joinedAt: number | null;
}

export const RECORDING_STATUSES = ['INVOKED', 'RECORDING', 'PAUSED', 'UPLOADING', 'UPLOADED', 'ERRORED'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];

export const STORAGE_TYPES = ['aws', 'azure', 'digitalocean', 'gcs', 'sftp'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

/** What is kept of a client's storage config: never its secrets (they are dropped at parse). */
export interface StorageConfig {
  id: string;
  type: StorageType;
  region: string | null;
  bucket: string | null;
  path: string | null;
  host: string | null;
  username: string | null;
  port: number | null;
  authMethod: 'KEY' | 'PASSWORD' | null;
}

export type StartReason = 'API_CALL' | 'RECORD_ON_START';
export type StopReason = 'API_CALL' | 'ALL_PEERS_LEFT' | 'INTERNAL_ERROR' | 'MAX_SECONDS';

/**
 * Who started or stopped a recording. SYSTEM is the emulator itself (record_on_start, the
 * empty-meeting and max_seconds stops, failures); the v2 answers show it as the organization,
 * the webhooks as `INTERNAL` (as production's webhook guide does).
 */
export interface ReasonCaller {
  reason: string;
  caller: { name: string | null; type: 'ORGANIZATION' | 'USER' | 'SYSTEM'; user_id: string | null };
}

export const VIDEO_CODECS = ['H264', 'VP8'] as const;
export const AUDIO_CODECS = ['AAC', 'MP3'] as const;
export const WATERMARK_POSITIONS = ['left top', 'right top', 'left bottom', 'right bottom'] as const;

/** An image drawn over a recording's video (`video_config.watermark`). */
export interface Watermark {
  url: string;
  /** Its size in the video, px; null: the image's own. */
  width: number | null;
  height: number | null;
  position: (typeof WATERMARK_POSITIONS)[number];
}

/** What a recording's video is made as (`video_config`, with the documented defaults). */
export interface RecordingVideo {
  codec: (typeof VIDEO_CODECS)[number];
  width: number;
  height: number;
  watermark: Watermark | null;
  /** `export_file`: false → no video file (an audio-only recording). */
  exportFile: boolean;
}

/** What a recording's sound is made as (`audio_config`; Vorbis whenever the video is VP8). */
export interface RecordingAudio {
  codec: (typeof AUDIO_CODECS)[number];
  channel: 'mono' | 'stereo';
}

/** A composite recording (the meeting as one picture and one mix), or a track recording (each track as sent). */
export type RecordingKind = 'composite' | 'track';

export interface Recording {
  id: string;
  orgId: string;
  meetingId: string;
  status: RecordingStatus;
  outputFileName: string;
  invokedTime: number;
  startedTime: number | null;
  stoppedTime: number | null;
  sessionId: string | null;
  fileSize: number | null;
  downloadUrl: string | null;
  audioDownloadUrl: string | null;
  downloadUrlExpiry: number | null;
  recordingDuration: number | null;
  storageConfig: StorageConfig | null;
  startReason: ReasonCaller;
  stopReason: ReasonCaller | null;
  maxSeconds: number;
  allowMultipleRecordings: boolean;
  /** False when `dyte_bucket_config.enabled` was false: the upload makes no download links. */
  uploadToBucket: boolean;
  /** False when `audio_config.export_file` was false: the upload makes no audio link. */
  exportAudio: boolean;
  kind: RecordingKind;
  video: RecordingVideo;
  audio: RecordingAudio;
  /** Recorded time accumulated over RECORDING spans (pauses excluded), ms. */
  recordedMs: number;
  /** When the current RECORDING span began, null while not recording. */
  spanStartedAt: number | null;
  /** Why it ERRORED, when it did. */
  errorReason: string | null;
}

/**
 * STOPPED is shown as OFFLINE on the wire: a stopped livestream is offline and inactive. IDLE is a
 * livestream whose ingest ended without it being stopped: the encoder may connect again.
 */
export type LivestreamState = 'OFFLINE' | 'LIVE' | 'IDLE' | 'STOPPED' | 'ERRORED';
export type LivestreamWireStatus = 'OFFLINE' | 'LIVE' | 'IDLE' | 'ERRORED';

export interface Livestream {
  id: string;
  orgId: string;
  /** The meeting it streams; null for a livestream of its own (any RTMP encoder: POST /v2/livestreams). */
  meetingId: string | null;
  state: LivestreamState;
  name: string | null;
  streamKey: string;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
  /** Accumulated LIVE time before the current span, ms. */
  liveMs: number;
  /** When the current LIVE span began. */
  liveSince: number | null;
  stoppedAt: number | null;
}

/** One period during which a livestream is LIVE: opened when it goes LIVE, closed when it leaves LIVE. */
export interface LivestreamSession {
  id: string;
  orgId: string;
  livestreamId: string;
  /** The meeting session running when a meeting's livestream went LIVE, if one was. */
  meetingSessionId: string | null;
  /** When an API call asked for it (a meeting's livestream: its creation); null for an encoder's own ingest. */
  invokedTime: number | null;
  startedTime: number;
  stoppedTime: number | null;
  /** Why the ingest failed, when the session ended in ERRORED. */
  errMessage: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface Category {
  code: string;
  label: string;
  carbonFootprint: string;
  certifications: string[];
}

export interface Product {
  orgId: string;
  categoryCode: string;
  productId: string; // upper-cased
  svcCode: string;
  name: string;
  brand: string;
  description: string;
  attributes: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

/** Webhook event names (docs/webhooks.md). The last three announce a session's files (session history). */
export const WEBHOOK_EVENTS = [
  'meeting.started',
  'meeting.ended',
  'meeting.participantJoined',
  'meeting.participantLeft',
  'recording.statusUpdate',
  'livestreaming.statusUpdate',
  'meeting.chatSynced',
  'meeting.transcript',
  'meeting.summary',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Emulator decision (the contract shows no limit): registered webhooks per organization. */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 100;

// --- which API a webhook was registered through ---
/** v2 deliveries carry dyte-* headers; RealtimeKit ones rtk-* (same signing key, same body). */
export const WEBHOOK_APIS = ['v2', 'realtimekit'] as const;
export type WebhookApi = (typeof WEBHOOK_APIS)[number];

export interface Webhook {
  id: string;
  orgId: string;
  name: string;
  url: string;
  events: WebhookEventName[];
  enabled: boolean;
  registeredThrough: WebhookApi;
  createdAt: number;
  updatedAt: number;
}
