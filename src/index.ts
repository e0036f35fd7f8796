// The package's main export: run the emulator inside a test runner.
//
//   const emu = await startEmulator();            // manual clock, free port, silent
//   await fetch(`${emu.url}/v2/meetings`, { method: 'POST', headers: { authorization: emu.authHeader } });
//   await emu.advance(5_000);                      // runs every job that falls due
//   await emu.close();
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApp as createExpressApp } from './app.js';
import { defaultConfig, storageEndpointsProblem, type Config } from './config.js';
import type { Deps } from './container.js';
import { silentLogger, createLogger } from './logger.js';
import { listenEmulator } from './runtime.js';
import { loadFixturesFile, parseFixtures, type Fixtures } from './store/fixtures.js';
import { deliveryDto } from './http/control/delivery-view.js';
import { networkBody, networkDto, type networkSchema } from './http/control/network-view.js';
import { parseWith } from './http/validation.js';
import type { DeliveryFilter } from './webhooks/outbox.js';
import type { z } from 'zod';

/** A webhook delivery as GET /_emulator/webhooks/deliveries shows it. */
export type DeliveryView = ReturnType<typeof deliveryDto>;

/** A network scenario, as POST /_emulator/meetings/{id}[/participants/{pid}]/network takes it (docs/bad-network.md). */
export interface NetworkScenario {
  scenario: 'signal-drop' | 'signal-outage' | 'media-drop' | 'loss' | 'latency' | 'bandwidth' | 'clear';
  direction?: 'up' | 'down' | 'both';
  percent?: number;
  ms?: number;
  kbps?: number;
  seconds?: number;
}

/** The network of a meeting, or of a participant in it, as GET …/network shows it. */
export type NetworkState = z.infer<ReturnType<typeof networkSchema>>;

/**
 * A request handler for node:http (`http.createServer(handler)`) or supertest (`request(handler)`):
 * the whole API, without a port.
 */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The app of the emulator, built on `deps`. Typed as a plain node:http handler: that the app is an
 * express one is ours to change, and a consumer's compiler then needs no express types, which
 * express itself does not ship.
 */
export function createApp(deps: Deps): RequestHandler {
  return createExpressApp(deps);
}
export { buildDeps, type Deps } from './container.js';
export { defaultConfig, parseConfig, type Config } from './config.js';
export type { Fixtures } from './store/fixtures.js';

export interface StartOptions extends Partial<Omit<Config, 'fixtures' | 'startTime' | 'publicUrlGiven' | 'tlsPort' | 'rtmpPort' | 'rtmpsPort' | 'uiDir'>> {
  /**
   * The TLS listener for the web SDK (docs/frontend-offline.md): off by default here, since test
   * files start emulators side by side and a fixed port would let only one of them listen. 0
   * picks a free port (its URL is `tlsUrl`), a number takes that port; null or absent: off.
   */
  tlsPort?: number | null;
  /** The RTMP and RTMPS ingest ports, as tlsPort: off by default here, 0 picks a free port (config.rtmpPort/rtmpsPort of `deps` tell which). */
  rtmpPort?: number | null;
  rtmpsPort?: number | null;
  /** A fixtures file path or an already-built fixtures object. Default: the bundled fixtures. */
  fixtures?: string | Fixtures;
  /**
   * Where the clock starts (ISO or epoch ms). A manual clock starts by default at the real time to
   * the whole second, so that tokens verify by the wall clock; with `seed` at 2026-01-01T00:00:00Z,
   * so that a seeded run gives the same bytes every time.
   */
  startTime?: string | number;
}

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:53211 */
  /** The RTMP ingest (rtmpPort, rtmpsPort): how many encoders are connected, and publishing. */
  ingest: { counts(): { connections: number; publishing: number } };
  url: string;
  /**
   * The TLS listener's URL, e.g. https://localhost:53212, when `tlsPort` was given; its host and
   * port are the web SDK's `baseURI` (`localhost:53212`).
   */
  tlsUrl: string | undefined;
  /** The first organization of the fixtures. */
  orgId: string;
  apiKey: string;
  /** Ready-to-use v2 header value: `Basic base64(orgId:apiKey)`. */
  authHeader: string;
  /**
   * Moves the clock forward by `ms`, running every job that falls due, in time order; resolves once
   * every recording whose upload came due is UPLOADED (or ERRORED): its files complete and delivered.
   */
  advance(ms: number): Promise<void>;
  /** Moves the clock forward to `iso` (never back). */
  setNow(iso: string): Promise<void>;
  /** Everything back to the fixtures. */
  reset(): Promise<void>;
  /**
   * Network trouble on demand, as POST …/network does (docs/bad-network.md): a scenario for a whole
   * meeting, or for one participant in it; answers what is in force afterwards. Bad input throws
   * the control API's error (its `status` and message), with nothing applied.
   */
  setNetwork(meetingId: string, participantId: string | null, scenario: NetworkScenario): Promise<NetworkState>;
  /** What GET …/network answers: the scenarios in force and how the pages' sockets and media stand. */
  network(meetingId: string, participantId?: string): Promise<NetworkState>;
  /**
   * The webhook delivery log, newest first, once no attempt is in flight — so a test can assert
   * on what its receiver got without sleeping.
   */
  deliveries(filter?: DeliveryFilter): Promise<DeliveryView[]>;
  /** The internals, for advanced use (services, store, scheduler). */
  deps: Deps;
  /**
   * Shuts down as the command line does on SIGTERM (docs/running.md, "Shutdown"): requests and webhook
   * attempts in flight get a grace period, attempts cut off are recorded as interrupted, the
   * state file (when one is set) is saved, and every connection is closed.
   */
  close(): Promise<void>;
}

function toConfig(options: StartOptions): { config: Config; fixtures: Fixtures } {
  const { fixtures: fx, startTime, ...rest } = options;
  const fixtures = typeof fx === 'object' ? parseFixtures(fx, 'startEmulator({ fixtures })') : loadFixturesFile(fx ?? defaultConfig().fixtures);
  const clock = rest.clock ?? 'manual';
  const start = typeof startTime === 'string' ? Date.parse(startTime) : startTime;
  if (start !== undefined && Number.isNaN(start)) throw new Error(`startTime must be an ISO time, got ${String(startTime)}`);
  const endpoints = rest.storageEndpoints && storageEndpointsProblem(rest.storageEndpoints);
  if (endpoints) throw new Error(`storageEndpoints: ${endpoints}`);
  const config = defaultConfig({
    logLevel: 'silent',
    ...rest,
    // A free port on the loopback interface unless told otherwise.
    host: rest.host ?? '127.0.0.1',
    port: rest.port ?? 0,
    tlsPort: rest.tlsPort ?? null,
    // The RTMP ingest too is off unless asked for (0 picks a free port), for the same reason.
    rtmpPort: rest.rtmpPort ?? null,
    rtmpsPort: rest.rtmpsPort ?? null,
    clock,
    startTime: start,
    fixtures: typeof fx === 'string' ? fx : defaultConfig().fixtures,
  });
  return { config, fixtures };
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const { config, fixtures } = toConfig(options);
  const { deps, url, tlsUrl, ingest, close } = await listenEmulator(config, {
    fixtures,
    logger: config.logLevel === 'silent' ? silentLogger() : createLogger(config.logLevel, undefined, config.logFormat),
  });

  const org = fixtures.organizations[0]!;
  return {
    url,
    tlsUrl,
    ingest,
    orgId: org.id,
    apiKey: org.api_key,
    authHeader: `Basic ${Buffer.from(`${org.id}:${org.api_key}`).toString('base64')}`,
    deps,
    async advance(ms: number) {
      if (!(ms >= 0)) throw new Error('advance(ms) takes a non-negative number');
      deps.scheduler.advanceTo(deps.clock.now() + ms);
      await deps.services.recordings.delivery.idle();
    },
    async setNow(iso: string) {
      const target = Date.parse(iso);
      if (Number.isNaN(target)) throw new Error(`setNow takes an ISO time, got ${iso}`);
      if (target < deps.clock.now()) throw new Error('setNow cannot move the clock back');
      deps.scheduler.advanceTo(target);
      await deps.services.recordings.delivery.idle();
    },
    async reset() {
      deps.reset();
    },
    async setNetwork(meetingId, participantId, scenario) {
      const request = parseWith(networkBody(), scenario);
      return networkDto(deps.signalling.setNetwork(meetingId, participantId, request));
    },
    async network(meetingId, participantId) {
      return networkDto(deps.signalling.network(meetingId, participantId ?? null));
    },
    async deliveries(filter: DeliveryFilter = {}) {
      await deps.webhooks.outbox.idle();
      return deps.webhooks.outbox.list(filter).items.map(deliveryDto);
    },
    close,
  };
}
