// The measured workloads (autocannon, in the bench process) and how each is prepared on a
// server. Every scenario sends what a client of the emulator sends: Basic credentials, a JSON
// body where the route takes one.
import autocannon, { type RequestSpec, type Result } from 'autocannon';
import { cpuSeconds } from './proc.js';
import { AUTH, request } from './servers.js';

export type ScenarioId = 'post-meeting' | 'get-meeting' | 'add-participant' | 'mixed' | 'list-meetings';

const JSON_HEADERS = { authorization: AUTH, 'content-type': 'application/json' };
export const MEETING_BODY = JSON.stringify({ title: 'Bench meeting', preferred_region: 'us-east-1', record_on_start: false });
export const PARTICIPANT_BODY = JSON.stringify({ name: 'Bench participant', preset_name: 'group_call_host', custom_participant_id: 'bench-user' });

export interface Prepared {
  /** An existing meeting's id (GET by id, participants). */
  meetingId?: string;
}

export interface Scenario {
  id: ScenarioId;
  label: string;
  /** HTTP requests per completed iteration (the mixed flow sends 5). */
  requestsPerIteration: number;
  /** An autocannon CLI line that sends the same thing (for RESULTS.md). */
  cli(base: string, connections: number, seconds: number, prepared: Prepared): string;
  requests(prepared: Prepared): RequestSpec[];
}

function data<T>(body: string): T | undefined {
  try {
    return (JSON.parse(body) as { data?: T }).data;
  } catch {
    return undefined;
  }
}

/** The CLI lines refer to $AUTH (defined once in RESULTS.md) rather than spelling the header out. */
const auth = `-H "authorization: $AUTH"`;
const jsonCli = `${auth} -H 'content-type: application/json'`;

export const SCENARIOS: Record<ScenarioId, Scenario> = {
  'post-meeting': {
    id: 'post-meeting',
    label: 'POST /v2/meetings',
    requestsPerIteration: 1,
    cli: (base, c, d) => `npx autocannon -c ${c} -d ${d} -m POST ${jsonCli} -b '${MEETING_BODY}' ${base}/v2/meetings`,
    requests: () => [{ method: 'POST', path: '/v2/meetings', headers: JSON_HEADERS, body: MEETING_BODY }],
  },
  'get-meeting': {
    id: 'get-meeting',
    label: 'GET /v2/meetings/{id}',
    requestsPerIteration: 1,
    cli: (base, c, d, p) => `npx autocannon -c ${c} -d ${d} ${auth} ${base}/v2/meetings/${p.meetingId}`,
    requests: (p) => [{ method: 'GET', path: `/v2/meetings/${p.meetingId}`, headers: { authorization: AUTH } }],
  },
  'add-participant': {
    id: 'add-participant',
    label: 'POST /v2/meetings/{id}/participants',
    requestsPerIteration: 1,
    cli: (base, c, d, p) => `npx autocannon -c ${c} -d ${d} -m POST ${jsonCli} -b '${PARTICIPANT_BODY}' ${base}/v2/meetings/${p.meetingId}/participants`,
    requests: (p) => [{ method: 'POST', path: `/v2/meetings/${p.meetingId}/participants`, headers: JSON_HEADERS, body: PARTICIPANT_BODY }],
  },
  'list-meetings': {
    id: 'list-meetings',
    label: 'GET /v2/meetings (first page)',
    requestsPerIteration: 1,
    cli: (base, c, d) => `npx autocannon -c ${c} -d ${d} ${auth} ${base}/v2/meetings`,
    requests: () => [{ method: 'GET', path: '/v2/meetings', headers: { authorization: AUTH } }],
  },
  // Meeting → participant → recording start → the recorder joins → stop. The recorder joining is
  // forced through the control API (as a test would): with real timing the simulator needs 3 s,
  // and a stop before that is a 409 by the contract.
  mixed: {
    id: 'mixed',
    label: 'mixed flow (meeting, participant, recording start, stop)',
    requestsPerIteration: 5,
    cli: () => 'programmatic only (autocannon `requests` chain, bench/lib/load.ts)',
    requests: () => [
      {
        method: 'POST',
        path: '/v2/meetings',
        headers: JSON_HEADERS,
        body: MEETING_BODY,
        onResponse: (_s, body, ctx) => {
          ctx.meetingId = data<{ id: string }>(body)?.id;
        },
      },
      {
        method: 'POST',
        headers: JSON_HEADERS,
        body: PARTICIPANT_BODY,
        setupRequest: (req, ctx) => (ctx.meetingId ? { ...req, path: `/v2/meetings/${String(ctx.meetingId)}/participants` } : undefined),
      },
      {
        method: 'POST',
        path: '/v2/recordings',
        headers: JSON_HEADERS,
        setupRequest: (req, ctx) => ({ ...req, body: JSON.stringify({ meeting_id: ctx.meetingId }) }),
        onResponse: (_s, body, ctx) => {
          ctx.recordingId = data<{ id: string }>(body)?.id;
        },
      },
      {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ to: 'RECORDING' }),
        setupRequest: (req, ctx) => (ctx.recordingId ? { ...req, path: `/_emulator/recordings/${String(ctx.recordingId)}/transition` } : undefined),
      },
      {
        method: 'PUT',
        headers: JSON_HEADERS,
        body: JSON.stringify({ action: 'stop' }),
        setupRequest: (req, ctx) => (ctx.recordingId ? { ...req, path: `/v2/recordings/${String(ctx.recordingId)}` } : undefined),
      },
    ],
  },
};

/** Creates what a scenario needs on a server (a meeting to read or to add participants to). */
export async function prepare(base: string): Promise<Prepared> {
  const res = await request<{ data?: { id: string } }>(base, 'POST', '/v2/meetings', { title: 'Bench fixture meeting' });
  if (res.status !== 201 || !res.body.data?.id) throw new Error(`${base}: POST /v2/meetings answered ${res.status}`);
  return { meetingId: res.body.data.id };
}

export interface LoadResult {
  /** Successful (2xx) requests per second. */
  rps: number;
  /** Latency, ms: mean (autocannon's percentiles are whole milliseconds) and p99. */
  mean: number;
  p99: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** CPU used during the run, in cores: the server process (when its pid is known) and this one (autocannon). */
  serverCpu: number;
  clientCpu: number;
}

/** A process's CPU time so far (user + system), ms; NaN when it is unknown or gone. */
function cpuMsOf(pid: number | undefined): number {
  const seconds = pid === undefined ? undefined : cpuSeconds(pid);
  return seconds === undefined ? Number.NaN : seconds * 1000;
}

export async function runLoad(
  base: string,
  scenario: Scenario,
  prepared: Prepared,
  connections: number,
  seconds: number,
  serverPid?: number,
): Promise<LoadResult> {
  const server0 = cpuMsOf(serverPid);
  const client0 = process.cpuUsage();
  const result: Result = await autocannon({ url: base, connections, duration: seconds, timeout: 10, requests: scenario.requests(prepared) });
  const client = process.cpuUsage(client0);
  const wallMs = result.duration * 1000;
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(s.count);
  return {
    rps: result['2xx'] / result.duration,
    // Little's law (closed loop: each connection waits for its answer): exact, where
    // autocannon's own latency histogram counts whole milliseconds.
    mean: (connections * 1000 * result.duration) / Math.max(1, result.requests.total),
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
    serverCpu: (cpuMsOf(serverPid) - server0) / wallMs,
    clientCpu: (client.user + client.system) / 1000 / wallMs,
  };
}

/** A fixed number of requests (not a duration), so a warm-up costs little on a fast server. */
export async function warmUp(base: string, scenario: Scenario, prepared: Prepared, amount = 300): Promise<void> {
  await autocannon({ url: base, connections: 8, amount, timeout: 10, requests: scenario.requests(prepared) });
}
