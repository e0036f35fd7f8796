// The shapes the dashboard reads, as the control API and the event stream send them.
export interface Org {
  id: string;
  name: string;
  /** The RealtimeKit account the organization is an app of. */
  account_id: string;
}

/** A session of a meeting as the overview counts it. */
export interface SessionSummary {
  id: string;
  started_at: string;
  ended_at: string | null;
  end_reason: 'ALL_PARTICIPANTS_LEFT' | 'HOST_ENDED_MEETING' | null;
  participant_count: number;
  chat_message_count: number;
  transcript_line_count: number;
}

export interface Participant {
  id: string;
  name: string | null;
  custom_participant_id: string;
  preset_name: string;
  created_at: string;
  joined_at: string | null;
  /** Where they stand on the stage while present (everyone is ON_STAGE in a meeting without one); null when absent. */
  stage: 'ON_STAGE' | 'OFF_STAGE' | 'REQUESTED_TO_JOIN_STAGE' | 'ACCEPTED_TO_JOIN_STAGE' | null;
}

/** One who waits in a meeting's waiting room. */
export interface Waiting {
  participant_id: string;
  custom_participant_id: string;
  name: string | null;
  preset_name: string;
  since: string;
  via: 'page' | 'scripted';
}

export interface Recording {
  id: string;
  meeting_id: string;
  status: string;
  invoked_time: string;
  started_time: string | null;
  stopped_time: string | null;
  download_url: string | null;
  audio_download_url: string | null;
  recording_duration: number | null;
  file_size: number | null;
  output_file_name: string;
  /** Why it ERRORED; null otherwise. */
  error_reason: string | null;
  /** Where its files were sent for its storage_config, and how that ended; null when none was due. */
  storage_upload: StorageUpload | null;
}

export interface StorageUpload {
  type: string;
  outcome: 'uploading' | 'uploaded' | 'failed' | 'not_sent';
  reason: string | null;
  files: Array<{ name: string; bytes: number; key: string; location: string; outcome: string }>;
}

export interface Livestream {
  id: string;
  meeting_id: string;
  status: string;
  name: string | null;
  playback_url: string;
  created_at: string;
  updated_at: string;
}

export interface Meeting {
  id: string;
  title: string | null;
  status: string;
  created_at: string;
  record_on_start: boolean;
  live_stream_on_start: boolean;
  waiting_room: boolean;
  /** A breakout room: the meeting it was opened from. */
  parent_meeting_id: string | null;
  session: { id: string; started_at: string; ended_at: string | null } | null;
  /** Newest first. */
  sessions: SessionSummary[];
  participants: Participant[];
  recordings: Recording[];
  livestreams: Livestream[];
  /** Who waits in the waiting room, in the order they arrived. */
  waiting: Waiting[];
}

export interface Webhook {
  id: string;
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
}

export interface Overview {
  organization: Org;
  clock: Clock;
  meetings: Meeting[];
  meetings_total: number;
  webhooks: Webhook[];
}

export interface Clock {
  now: string;
  mode: 'real' | 'manual';
}

export interface Attempt {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  trigger: string;
}

export interface Delivery {
  id: string;
  org_id: string | null;
  webhook_id: string;
  event: string;
  url: string;
  payload: { meeting?: { id?: string }; streamId?: string } & Record<string, unknown>;
  status: string;
  attempts: Attempt[];
  next_attempt_at: string | null;
  failure_reason: string | null;
  /** What the payload cannot say: why a recording ERRORED. */
  note: string | null;
  created_at: string;
}

export interface JournalEntry {
  id: string;
  at: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  duration_ms: number;
  org_id: string | null;
  /** RealtimeKit requests: the account and app named in the path; null otherwise. */
  account_id: string | null;
  app_id: string | null;
  body: unknown;
  deliveries: string[];
  /** The emulator's own upload of a recording's file to an app's storage. */
  upload?: { recording_id: string; storage_type: string; file: string; bytes: number; outcome: 'uploaded' | 'failed'; error: string | null };
}

export interface FaultRule {
  id: string;
  method: string | null;
  path: string;
  status: number | null;
  delay_ms: number;
  drop: boolean;
  remaining: number;
  matched: number;
}

/** One message of GET /_emulator/events. */
export interface FeedEvent {
  id: number;
  kind: 'domain' | 'delivery' | 'upload' | 'clock' | 'request' | 'reset';
  data: Record<string, unknown> & { type?: string; at?: string; org_id?: string | null; meeting_id?: string | null };
}

/** A poll of a session as production shows one: each option's count and voters. */
export interface Poll {
  id: string;
  question: string;
  options: Array<{ text: string; count: number; votes: Array<{ id: string; name: string }> }>;
  anonymous: boolean;
  hide_votes: boolean;
  created_by: string;
  voted: string[];
}

/** A chat message of a session, as GET /_emulator/meetings/{id}/chat gives it. */
export interface ChatEntry {
  id: string;
  participant_id: string;
  display_name: string | null;
  payload_type: 'TEXT_MESSAGE' | 'IMAGE_MESSAGE' | 'FILE_MESSAGE' | 'CUSTOM_MESSAGE';
  payload: string;
  /** An image or file message: its name, size, and its path on the emulator (null for a link elsewhere). */
  file: { name: string; size: number | null; path: string | null } | null;
  to: string[];
  channel: { id: string; name: string } | null;
  pinned: boolean;
  edited_at: string | null;
  created_at: string;
}

/** What the open meeting's current (or last) session holds besides its counts: its polls and chat. */
export interface SessionActivity {
  meeting_id: string;
  session_id: string;
  polls: Poll[];
  chat: ChatEntry[];
  /** Messages the session keeps; the dashboard shows the newest. */
  chat_total: number;
}

/** One direction of a participant's media on the media plane, as the network scenarios make it. */
export interface NetworkPath {
  loss_percent: number;
  latency_ms: number;
  bandwidth_kbps: number | null;
}

/** A network scenario in force (GET /_emulator/meetings/{id}/network). */
export interface NetworkScenario {
  id: number;
  scenario: 'signal-outage' | 'media-drop' | 'loss' | 'latency' | 'bandwidth';
  participant_id: string | null;
  direction: 'up' | 'down' | 'both' | null;
  percent: number | null;
  ms: number | null;
  kbps: number | null;
  seconds: number | null;
  started_at: string;
  ends_at: string | null;
  paths_cut: number | null;
}

/** A meeting's network: its own scenarios, and each participant's connection, scenarios and media link. */
export interface MeetingNetwork {
  meeting_id: string;
  scenarios: NetworkScenario[];
  participants: Array<{
    participant_id: string;
    custom_participant_id: string;
    name: string | null;
    preset_name: string;
    connection: 'connected' | 'reconnecting' | 'none';
    leaves_at: string | null;
    scenarios: NetworkScenario[];
    link: { up: NetworkPath; down: NetworkPath; media: 'flowing' | 'cut' };
  }>;
}
