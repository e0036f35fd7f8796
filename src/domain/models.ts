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
  recordingConfig: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
  /** The current session, or the last one once it ended. */
  session: MeetingSession | null;
}

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
}

export type StartReason = 'API_CALL' | 'RECORD_ON_START';
export type StopReason = 'API_CALL' | 'ALL_PEERS_LEFT' | 'INTERNAL_ERROR' | 'MAX_SECONDS';

export interface ReasonCaller {
  reason: string;
  caller: { name: string | null; type: 'ORGANIZATION' | 'USER' | 'SYSTEM'; user_id: string | null };
}

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
  /** Recorded time accumulated over RECORDING spans (pauses excluded), ms. */
  recordedMs: number;
  /** When the current RECORDING span began, null while not recording. */
  spanStartedAt: number | null;
  /** Why it ERRORED, when it did. */
  errorReason: string | null;
}

/** STOPPED is shown as OFFLINE on the wire: a stopped livestream is offline and inactive. */
export type LivestreamState = 'OFFLINE' | 'LIVE' | 'STOPPED' | 'ERRORED';
export type LivestreamWireStatus = 'OFFLINE' | 'LIVE' | 'ERRORED';

export interface Livestream {
  id: string;
  orgId: string;
  meetingId: string;
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

/** Webhook event names (docs/webhooks.md). The last three are valid to subscribe to; the emulator has no source for them yet. */
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

export interface Webhook {
  id: string;
  orgId: string;
  name: string;
  url: string;
  events: WebhookEventName[];
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}
