// GET|PATCH /_emulator/simulator: the simulator's policy at run time — per resource kind a
// mode (auto | manual), the delays, and failure injection (fail_next).
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import type { SimulatorPolicy, SimulatorPolicyPatch } from '../../simulator/simulator-policy.js';
import { route } from '../route.js';

const TAG = 'Control: simulator';
/** Delays up to 30 days (emulated time). */
const delayMs = lazy(() =>
  z
    .number()
    .int()
    .min(0)
    .max(30 * 24 * 60 * 60 * 1000),
);
const mode = lazy(() => z.enum(['auto', 'manual']).meta({ description: 'auto: the simulator moves resources along; manual: nothing moves by itself' }));
const failNext = lazy(() => z.number().int().min(0).max(1_000_000).meta({ description: 'The next N simulated steps end in ERRORED (counts down as they do)' }));

export const simulatorPolicySchema = lazy(() =>
  z.object({
    recording: z.object({
      mode: mode(),
      start_delay_ms: delayMs().meta({ description: 'INVOKED → RECORDING' }),
      upload_base_ms: delayMs().meta({ description: 'UPLOADING → UPLOADED takes upload_base_ms + upload_ms_per_recorded_minute × recorded minutes' }),
      upload_ms_per_recorded_minute: delayMs(),
      fail_next: failNext(),
      fail_at: z.enum(['start', 'upload']).meta({ description: 'Where fail_next strikes: at start (INVOKED → ERRORED) or at upload (UPLOADING → ERRORED)' }),
    }),
    livestream: z.object({
      mode: mode(),
      go_live_delay_ms: delayMs().meta({ description: 'OFFLINE → LIVE' }),
      viewers: z.number().int().min(0).max(1_000_000).meta({ description: 'viewer_seconds = ingest_seconds × viewers' }),
      fail_next: failNext().meta({ description: 'The next N simulated go-lives end in ERRORED instead' }),
    }),
  }),
);

/** Every field optional, unknown keys refused: the patch is merged into the current policy. */
export const simulatorPatchBody = lazy(() =>
  z.strictObject({
    recording: simulatorPolicySchema().shape.recording.partial().strict().optional(),
    livestream: simulatorPolicySchema().shape.livestream.partial().strict().optional(),
  }),
);

// --- mapping (internal camelCase ⇄ control wire snake_case) --------------------------------

export function simulatorPolicyDto(p: SimulatorPolicy): z.infer<ReturnType<typeof simulatorPolicySchema>> {
  return {
    recording: {
      mode: p.recording.mode,
      start_delay_ms: p.recording.startDelayMs,
      upload_base_ms: p.recording.uploadBaseMs,
      upload_ms_per_recorded_minute: p.recording.uploadMsPerRecordedMinute,
      fail_next: p.recording.failNext,
      fail_at: p.recording.failAt,
    },
    livestream: {
      mode: p.livestream.mode,
      go_live_delay_ms: p.livestream.goLiveDelayMs,
      viewers: p.livestream.viewers,
      fail_next: p.livestream.failNext,
    },
  };
}

export function simulatorPatchFrom(body: z.infer<ReturnType<typeof simulatorPatchBody>>): SimulatorPolicyPatch {
  const r = body.recording;
  const l = body.livestream;
  return {
    recording: r && {
      mode: r.mode,
      startDelayMs: r.start_delay_ms,
      uploadBaseMs: r.upload_base_ms,
      uploadMsPerRecordedMinute: r.upload_ms_per_recorded_minute,
      failNext: r.fail_next,
      failAt: r.fail_at,
    },
    livestream: l && { mode: l.mode, goLiveDelayMs: l.go_live_delay_ms, viewers: l.viewers, failNext: l.fail_next },
  };
}

export const simulatorRoutes = [
  route({
    method: 'get',
    path: '/_emulator/simulator',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "The simulator's policy: modes, delays, failure injection",
    responses: { 200: { description: 'The policy', schema: () => simulatorPolicySchema() } },
    handler: ({ deps }) => ({ status: 200, body: simulatorPolicyDto(deps.simulator.policy) }),
  }),
  route({
    method: 'patch',
    path: '/_emulator/simulator',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'Change the policy: the given fields are merged, the others stay',
    description:
      'Switching a resource to manual cancels its pending simulated steps; switching back to auto re-arms every resource waiting on the simulator with the full delay from now. Changed delays apply to steps scheduled afterwards.',
    body: simulatorPatchBody,
    responses: { 200: { description: 'The policy after the merge', schema: () => simulatorPolicySchema() } },
    handler: ({ deps, body }) => ({ status: 200, body: simulatorPolicyDto(deps.simulator.update(simulatorPatchFrom(body), deps.clock.now())) }),
  }),
];
