// The network scenarios a test sets on a meeting or a participant (the control API's
// /network routes), and what they make of a participant's link to the media plane. Pure: the
// scenarios in force in, the link out.
import { CLEAR_PATH, type LinkConditions, type PathConditions } from '../media/media-types.js';

export const SCENARIOS = ['signal-drop', 'signal-outage', 'media-drop', 'loss', 'latency', 'bandwidth', 'clear'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
/** The scenarios that stay in force (until cleared, or for their seconds). */
export type LastingScenario = Exclude<ScenarioName, 'signal-drop' | 'clear'>;

/** up: what the participant publishes (towards the plane); down: what it receives. */
export const LINK_DIRECTIONS = ['up', 'down', 'both'] as const;
export type LinkDirection = (typeof LINK_DIRECTIONS)[number];

/** The figure each degrading scenario takes, and its bounds (an absurd figure is refused). */
export const FIGURES = {
  loss: { field: 'percent', min: 0.1, max: 100, unit: 'percent of the packets' },
  latency: { field: 'ms', min: 1, max: 10_000, unit: 'ms each way' },
  bandwidth: { field: 'kbps', min: 8, max: 1_000_000, unit: 'kbit/s' },
} as const;
export type DegradingScenario = keyof typeof FIGURES;

/** How long a scenario may be given to last (s). */
export const MAX_SCENARIO_SECONDS = 86_400;

/** A scenario as asked for (the body of POST …/network, validated). */
export interface ScenarioRequest {
  scenario: ScenarioName;
  direction?: LinkDirection;
  percent?: number;
  ms?: number;
  kbps?: number;
  seconds?: number;
}

/** A scenario in force. */
export interface Scenario {
  /** Its number, in the order scenarios were set (a reset starts them over). */
  id: number;
  orgId: string;
  meetingId: string;
  /** null: the whole meeting (everyone in it, whoever joins while it lasts). */
  participantId: string | null;
  name: LastingScenario;
  /** The degrading scenarios' direction. */
  direction: LinkDirection | null;
  /** The degrading scenarios' figure (percent, ms, kbps). */
  value: number | null;
  seconds: number | null;
  startedAt: number;
  endsAt: number | null;
  /**
   * media-drop: `path` cuts the transports a page had when it was set, until the page replaces them
   * (or restarts ICE) — the transports still cut are listed; `all` cuts every path, new ones too,
   * until it ends (a drop for some seconds, or a bot's clip, which has no path of its own to rebuild).
   */
  cut?: { mode: 'path'; transports: Set<string> } | { mode: 'all' };
}

/** Whether `s` applies to a participant of its meeting. */
export function appliesTo(s: Scenario, participantId: string): boolean {
  return s.participantId === null || s.participantId === participantId;
}

/** Whether a new scenario takes the place of `old` (the same kind, on the same target, in the same direction). */
export function replaces(request: { name: LastingScenario; participantId: string | null; direction: LinkDirection | null }, old: Scenario): boolean {
  return old.name === request.name && old.participantId === request.participantId && old.direction === request.direction;
}

function covers(direction: LinkDirection | null, side: 'up' | 'down'): boolean {
  return direction === 'both' || direction === side;
}

/**
 * One direction of the link, the scenarios in force taken as links in series (the meeting's
 * network, then the participant's own): losses compound, latencies add up, the narrowest cap wins.
 */
export function pathOf(scenarios: readonly Scenario[], side: 'up' | 'down'): PathConditions {
  let kept = 1;
  let latencyMs = 0;
  let bandwidthKbps: number | null = null;
  for (const s of scenarios) {
    if (s.value === null || !covers(s.direction, side)) continue;
    if (s.name === 'loss') kept *= 1 - s.value / 100;
    else if (s.name === 'latency') latencyMs += s.value;
    else if (s.name === 'bandwidth') bandwidthKbps = bandwidthKbps === null ? s.value : Math.min(bandwidthKbps, s.value);
  }
  return { lossPercent: Math.round((1 - kept) * 1e6) / 1e4, latencyMs, bandwidthKbps };
}

/** A participant's link from the scenarios that apply to them; null when nothing is wrong. */
export function linkOf(scenarios: readonly Scenario[]): LinkConditions | null {
  const up = pathOf(scenarios, 'up');
  const down = pathOf(scenarios, 'down');
  const cut = scenarios.some((s) => s.name === 'media-drop' && s.cut?.mode === 'all') ? 'all' : 'none';
  if (cut === 'none' && isClear(up) && isClear(down)) return null;
  return { up, down, cut };
}

function isClear(p: PathConditions): boolean {
  return p.lossPercent === CLEAR_PATH.lossPercent && p.latencyMs === CLEAR_PATH.latencyMs && p.bandwidthKbps === CLEAR_PATH.bandwidthKbps;
}

/** A scenario in a sentence, for logs and the dashboard: `loss 10% up`, `signal-outage for 30 s`. */
export function describe(s: { name: ScenarioName; direction: LinkDirection | null; value: number | null; seconds: number | null }): string {
  const figure = s.value === null ? '' : s.name === 'loss' ? ` ${s.value}%` : s.name === 'latency' ? ` ${s.value} ms` : ` ${s.value} kbps`;
  const direction = s.direction === null ? '' : ` ${s.direction}`;
  const lasting = s.seconds === null ? '' : ` for ${s.seconds} s`;
  return `${s.name}${figure}${direction}${lasting}`;
}
