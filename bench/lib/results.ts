// The shape of one bench run's results, shared by the runner and the report.
import type { Machine } from './machine.js';
import type { LoadResult, ScenarioId } from './load.js';
import type { ProfileSummary } from './profile.js';
import type { ServerKind } from './servers.js';
import type { FanoutRound } from './webhooks.js';
import type { ScenarioResult } from './scenario.js';
import type { NpmStartResult } from './npm-start.js';

export interface Settings {
  quick: boolean;
  seconds: number;
  /** POST and GET at 1 connection. */
  secondarySeconds: number;
  /** Participants and the mixed flow. */
  tertiarySeconds: number;
  rounds: number;
  coldStarts: number;
  prismColdStarts: number;
  memoryMeetings: number;
  growthSmall: number;
  growthLarge: number;
  growthSeconds: number;
  growthRounds: number;
  webhooks: number;
  webhookEventsPerRound: number;
  webhookRounds: number;
  signSeconds: number;
  profile: boolean;
  profileSeconds: number;
}

export interface Cell {
  server: string;
  runs: LoadResult[];
  command: string;
}

export interface ThroughputRow {
  scenario: ScenarioId;
  label: string;
  connections: number;
  seconds: number;
  requestsPerIteration: number;
  cells: Partial<Record<ServerKind, Cell>>;
  cli: string;
}

export interface ColdStartRow {
  kind: ServerKind;
  command: string;
  startupMs: number[];
  rss: number[];
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface HeapKind {
  kind: string;
  bytesPerMeeting: number;
  objectsPerMeeting: number;
}

export interface MemoryRun {
  /** What this run shows (the measurement, or a what-if). */
  label: string;
  simulator: 'auto' | 'manual';
  flatIds: boolean;
  breakdown?: HeapKind[];
  command: string;
  meetings: number;
  idle: MemorySample;
  before: MemorySample;
  afterMeetings: MemorySample;
  afterParticipants: MemorySample;
  after: MemorySample;
  fillMs: number;
  scheduledJobs: number;
  msPerAddWithToken: number;
  msPerAddStubbed: number;
}

export interface GrowthRow {
  scenario: ScenarioId;
  label: string;
  connections: number;
  seconds: number;
  small: Cell;
  large: Cell;
}

export interface WebhookResult {
  command: string;
  webhooks: number;
  eventsPerRound: number;
  rounds: FanoutRound[];
  signRates: number[];
  bodyBytes: number;
  badSignatures: number;
}

export interface ProfileEntry {
  name: string;
  command: string;
  summary: ProfileSummary;
}

export interface Results {
  machine: Machine;
  settings: Settings;
  command: string;
  startedAt: number;
  totalSeconds?: number;
  build?: string;
  /** `--baseline REF`: the short commit measured alongside. */
  baseline?: string;
  throughput: ThroughputRow[];
  coldStart: ColdStartRow[];
  /** A second `npm start` (already built): spawn → its URL line. */
  npmStart?: NpmStartResult;
  memory: MemoryRun[];
  growth: GrowthRow[];
  webhooks?: WebhookResult;
  /** The README's recording lifecycle, in process, ms per scenario, with the sample file for recordings (the target's figure). */
  scenario?: ScenarioResult;
  /** The same with real recordings (ffmpeg encodes each): reported, no target. */
  scenarioReal?: ScenarioResult;
  profiles: ProfileEntry[];
  warnings: string[];
}
