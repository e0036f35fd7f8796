// A network scenario as the control API takes it, and a meeting's network as it shows it: the
// schemas and the view shared by the network routes and the in-process API (startEmulator's
// setNetwork and network). Apart from the routes, so the package's types reach none of the HTTP layer.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { isoOrNull, toIso } from '../../core/clock.js';
import {
  FIGURES,
  LINK_DIRECTIONS,
  MAX_SCENARIO_SECONDS,
  SCENARIOS,
  type DegradingScenario,
  type Scenario,
  type ScenarioName,
} from '../../realtime/network/network-conditions.js';
import type { NetworkView } from '../../realtime/network/network-trouble.js';
import type { PathConditions } from '../../realtime/media/media-types.js';
import { isoTime } from '../v2/schemas.js';
import { participantView, participantViewSchema } from './participant-view.js';

const DEGRADING = Object.keys(FIGURES) as DegradingScenario[];

function figure(name: DegradingScenario) {
  const f = FIGURES[name];
  return z
    .number()
    .min(f.min)
    .max(f.max)
    .optional()
    .meta({ description: `For ${name}: ${f.unit}, ${f.min} to ${f.max}` });
}

export const networkBody = lazy(() =>
  z
    .strictObject({
      scenario: z.enum(SCENARIOS).meta({
        description:
          'signal-drop: the page’s signalling socket is cut without a close frame (the SDK reconnects by itself); signal-outage: cut, and every new socket refused while it lasts; ' +
          'media-drop: the page’s media paths fail (the SDK builds new ones), or with seconds every path it tries meanwhile; a bot’s clip stops reaching the others; ' +
          'loss, latency, bandwidth: the media on the media plane, per direction; clear: back to normal',
      }),
      direction: z
        .enum(LINK_DIRECTIONS)
        .optional()
        .meta({ description: 'For loss, latency and bandwidth: up (what the participant publishes), down (what it receives) or both (the default)' }),
      percent: figure('loss'),
      ms: figure('latency'),
      kbps: figure('bandwidth'),
      seconds: z
        .number()
        .min(0.1)
        .max(MAX_SCENARIO_SECONDS)
        .optional()
        .meta({ description: `How long it lasts on the emulator's clock (0.1 to ${MAX_SCENARIO_SECONDS}); absent: until cleared` }),
    })
    .superRefine((b, ctx) => {
      const name: ScenarioName = b.scenario;
      for (const degrading of DEGRADING) {
        const field = FIGURES[degrading].field;
        if (name === degrading && b[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `is required for ${degrading}` });
        if (name !== degrading && b[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `is only for ${degrading}, not ${name}` });
      }
      if (b.direction !== undefined && !(DEGRADING as readonly string[]).includes(name))
        ctx.addIssue({ code: 'custom', path: ['direction'], message: `is only for ${DEGRADING.join(', ')}, not ${name}` });
      if (b.seconds !== undefined && (name === 'signal-drop' || name === 'clear'))
        ctx.addIssue({ code: 'custom', path: ['seconds'], message: `is not taken by ${name}: it is done at once` });
    }),
);

const pathSchema = lazy(() =>
  z.object({
    loss_percent: z.number(),
    latency_ms: z.number(),
    bandwidth_kbps: z.number().nullable(),
  }),
);

const scenarioSchema = lazy(() =>
  z.object({
    id: z.number().int().meta({ description: 'The scenario’s number, in the order they were set (a reset starts over)' }),
    scenario: z.enum(['signal-outage', 'media-drop', 'loss', 'latency', 'bandwidth']),
    participant_id: z.uuid().nullable().meta({ description: 'Whom it is set on; null: the whole meeting' }),
    direction: z.enum(LINK_DIRECTIONS).nullable(),
    percent: z.number().nullable(),
    ms: z.number().nullable(),
    kbps: z.number().nullable(),
    seconds: z.number().nullable(),
    started_at: isoTime(),
    ends_at: isoTime().nullable().meta({ description: 'When it ends by itself (null: when cleared, or, for a media-drop, once every path it cut is rebuilt)' }),
    paths_cut: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'A media-drop of the pages’ paths: how many transports are still on a cut path; null for the others' }),
  }),
);

const participantNetworkSchema = lazy(() =>
  participantViewSchema().extend({
    connection: z.enum(['connected', 'reconnecting', 'none']).meta({
      description:
        'How their pages’ signalling sockets stand: one open; one lost and not back yet (the participant is still in the meeting until leaves_at); none (no page, or a scripted participant)',
    }),
    leaves_at: isoTime().nullable().meta({ description: 'While reconnecting: when they count as left unless a page comes back' }),
    scenarios: z.array(scenarioSchema()).meta({ description: 'What applies to them: the meeting’s scenarios and their own' }),
    link: z.object({ up: pathSchema(), down: pathSchema(), media: z.enum(['flowing', 'cut']) }).meta({
      description:
        'Their media on the media plane as the scenarios make it (taken as links in series: losses compound, latencies add up, the narrowest cap wins)',
    }),
  }),
);

export const networkSchema = lazy(() =>
  z.object({
    meeting_id: z.uuid(),
    scenarios: z.array(scenarioSchema()).meta({ description: 'The meeting’s own scenarios (for everyone in it)' }),
    participants: z
      .array(participantNetworkSchema())
      .meta({ description: 'The participant asked about; for the meeting, everyone present, with media, or with a scenario of their own' }),
  }),
);

const CLEAR: z.infer<ReturnType<typeof pathSchema>> = { loss_percent: 0, latency_ms: 0, bandwidth_kbps: null };

function pathDto(p: PathConditions): z.infer<ReturnType<typeof pathSchema>> {
  return { loss_percent: p.lossPercent, latency_ms: p.latencyMs, bandwidth_kbps: p.bandwidthKbps };
}

function scenarioDto(s: Scenario): z.infer<ReturnType<typeof scenarioSchema>> {
  return {
    id: s.id,
    scenario: s.name,
    participant_id: s.participantId,
    direction: s.direction,
    percent: s.name === 'loss' ? s.value : null,
    ms: s.name === 'latency' ? s.value : null,
    kbps: s.name === 'bandwidth' ? s.value : null,
    seconds: s.seconds,
    started_at: toIso(s.startedAt),
    ends_at: isoOrNull(s.endsAt),
    paths_cut: s.cut?.mode === 'path' ? s.cut.transports.size : null,
  };
}

/** The network of a meeting (or of one participant in it) as the control API shows it. */
export function networkDto(view: NetworkView): z.infer<ReturnType<typeof networkSchema>> {
  return {
    meeting_id: view.meeting.id,
    scenarios: view.scenarios.map(scenarioDto),
    participants: view.participants.map((p) => ({
      ...participantView(p.participant),
      connection: p.connection,
      leaves_at: isoOrNull(p.leavesAt),
      scenarios: p.scenarios.map(scenarioDto),
      link: {
        up: p.link ? pathDto(p.link.up) : CLEAR,
        down: p.link ? pathDto(p.link.down) : CLEAR,
        media: p.link?.cut === 'all' || p.scenarios.some((s) => s.cut?.mode === 'path' && s.cut.transports.size > 0) ? 'cut' : 'flowing',
      },
    })),
  };
}
