// The emulator as a Testcontainers module, for suites that want it in a container rather than in
// their own process (another language's client, a docker-compose-like setup, the shipped image):
//
//   const emu = await new MeetingsEmulatorContainer().withSeed('ci').start(); // builds the image
//   await fetch(`${emu.url}/v2/meetings`, { method: 'POST', headers: { authorization: emu.authHeader } });
//   await emu.advance(5_000);
//   await emu.stop();
//
// The started container mirrors `startEmulator()` (url, orgId, apiKey, authHeader, advance, reset),
// driving the clock and the state through the control API over HTTP. `testcontainers` is an
// optional peer dependency: only this entry point imports it, never the package's main one.
import { lookup } from 'node:dns/promises';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AbstractStartedContainer, GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { DEFAULT_FIXTURES, PACKAGE_ROOT, parseConfig } from './config.js';
import { hostPortPicker } from './core/host-ports.js';
import { LIMITS } from './http/limits.js';
import { portsOf, type MediaPorts } from './realtime/media/media-network.js';
import { loadFixturesFile, parseFixtures, type Fixtures } from './store/fixtures.js';
import type { DeliveryFilter } from './webhooks/outbox.js';
import type { DeliveryView } from './index.js';

/** The port the image listens on (its EXPOSE). */
export const EMULATOR_PORT = 4700;
/** The image's TLS listener, for the web SDK (its other EXPOSE). */
export const EMULATOR_TLS_PORT = 4443;
/** The image's media port (UDP, and TCP for pages that cannot send UDP), shared by every WebRTC transport. */
export const EMULATOR_MEDIA_PORT = 4710;
/** The image's plain RTMP ingest port. */
export const EMULATOR_RTMP_PORT = 1935;
/** The image's RTMPS ingest port: the livestreams' ingest_server. */
export const EMULATOR_RTMPS_PORT = 1936;

/**
 * Whether this package is a checkout of the repository (its Dockerfile is there), or an installed
 * package, which has none and builds its image from container/Dockerfile and what it ships.
 */
const IS_CHECKOUT = existsSync(path.join(PACKAGE_ROOT, 'Dockerfile'));

/**
 * The tag start() gives the image it builds: `meetings-emulator:testcontainers` in a checkout (the
 * repository's Dockerfile), `meetings-emulator:testcontainers-package` for an installed package
 * (container/Dockerfile). Rebuilding either is quick once its layers are cached.
 */
export const DEFAULT_BUILT_IMAGE = IS_CHECKOUT ? 'meetings-emulator:testcontainers' : 'meetings-emulator:testcontainers-package';

/**
 * What the installed package's image is made of (container/Dockerfile says where each goes): paths
 * in the package, and where they land in the build context. Nothing else of the package's folder,
 * which may sit in a project's node_modules, is sent to the engine.
 */
const PACKAGE_IMAGE_FILES: readonly (readonly [from: string, to: string])[] = [
  ['container/Dockerfile', 'Dockerfile'],
  ['container/warm-up.mjs', 'warm-up.mjs'],
  ['dist/container/package.json', 'package.json'],
  ['dist/container/package-lock.json', 'package-lock.json'],
  // The bin and the bundle, not the code cache the packing machine's Node.js made: the image makes its own.
  ['dist/bin/meetings-emulator.js', 'dist/bin/meetings-emulator.js'],
  ['dist/bin/emulator.cjs', 'dist/bin/emulator.cjs'],
  ['dist/ui', 'dist/ui'],
  ['fixtures', 'fixtures'],
  ['proto', 'proto'],
  ['patches', 'patches'],
];

/** Where a fixtures file given to withFixtures() lands in the container. */
const FIXTURES_IN_CONTAINER = '/app/fixtures/testcontainers.json';

/** How long the started container may take to answer its health check on a slow CI machine (building comes before). */
const DEFAULT_STARTUP_TIMEOUT_MS = 120_000;
/**
 * How often start() asks for the first 200 on the health path, and how long each ask may take.
 * Testcontainers' HTTP wait uses one figure for both, 1 s by default: an ask made while the
 * emulator was still starting failed at once and the next came a second later, so start() took
 * about a second more than the emulator did. The health answer takes milliseconds; an ask that
 * takes longer is asked again, until the startup timeout.
 */
const HEALTH_POLL_MS = 100;

export class MeetingsEmulatorContainer extends GenericContainer {
  /** What start() builds: the Dockerfile of a checkout, the installed package's own image, or nothing (an image was given). */
  private recipe: { checkout: string } | 'package' | undefined;
  private fixtures: Fixtures;

  /**
   * Without an image, start() builds one: from the Dockerfile of this package's checkout (or of
   * withBuildContext()), or, in an installed package, from what the package ships. With one, it
   * runs that image as any other.
   */
  constructor(image?: string) {
    super(image ?? DEFAULT_BUILT_IMAGE);
    this.recipe = image !== undefined ? undefined : IS_CHECKOUT ? { checkout: PACKAGE_ROOT } : 'package';
    // The image's own fixtures are the bundled ones; withFixtures() replaces both.
    this.fixtures = loadFixturesFile(DEFAULT_FIXTURES);
    this.withWaitStrategy(Wait.forHttp('/_emulator/health', EMULATOR_PORT).forStatusCode(200).withReadTimeout(HEALTH_POLL_MS))
      .withStartupTimeout(DEFAULT_STARTUP_TIMEOUT_MS)
      // Tests move time themselves, as with startEmulator(); withClock('real') lets it flow.
      .withEnvironment({ EMULATOR_CLOCK: 'manual' });
  }

  /** Build the image from the Dockerfile in `dir` (a checkout of this repository). */
  withBuildContext(dir: string): this {
    this.recipe = { checkout: path.resolve(dir) };
    return this;
  }

  /** manual (the default here): time moves only by advance(); real: it flows. */
  withClock(mode: 'manual' | 'real'): this {
    return this.withEnvironment({ EMULATOR_CLOCK: mode });
  }

  /** Makes every generated id, key and token reproducible. */
  withSeed(seed: string): this {
    return this.withEnvironment({ EMULATOR_SEED: seed });
  }

  /** Where the emulated clock starts; a string needs a zone, such as 2026-01-01T00:00:00Z. */
  withStartTime(time: string | Date): this {
    return this.withEnvironment({ EMULATOR_START_TIME: typeof time === 'string' ? time : time.toISOString() });
  }

  /**
   * A fixtures file on this machine, or a fixtures object, copied into the container. It is
   * checked here, so a mistake fails start() at once with the reason; its first organization
   * becomes orgId/apiKey of the started container.
   */
  withFixtures(fixtures: string | Fixtures): this {
    if (typeof fixtures === 'string') {
      const source = path.resolve(fixtures);
      this.fixtures = loadFixturesFile(source);
      this.withCopyFilesToContainer([{ source, target: FIXTURES_IN_CONTAINER, mode: 0o644 }]);
    } else {
      this.fixtures = parseFixtures(fixtures, 'withFixtures()');
      this.withCopyContentToContainer([{ content: JSON.stringify(fixtures), target: FIXTURES_IN_CONTAINER, mode: 0o644 }]);
    }
    return this.withEnvironment({ EMULATOR_FIXTURES: FIXTURES_IN_CONTAINER });
  }

  override async start(): Promise<StartedMeetingsEmulatorContainer> {
    // The emulator would refuse a bad setting by exiting, which a wait strategy only sees as a
    // timeout; the same options table gives the one-line reason now.
    const checked = parseConfig([], this.environment);
    if (!checked.ok) throw new Error(`MeetingsEmulatorContainer: ${checked.reason}`);
    const config = 'config' in checked ? checked.config : undefined;
    // Every port is published on a host port of start()'s own choosing (src/core/host-ports.ts: outside
    // the range the machine hands out by itself, so that no server of this machine gets it from the
    // kernel while the engine still forwards it to the container), never one the settings name.
    const media = config?.mediaPort ?? 0;
    const named = [...portsOf(media), config?.rtmpPort ?? 0, config?.rtmpsPort ?? 0];
    const hostPort = hostPortPicker({ named });
    this.withExposedPorts({ container: EMULATOR_PORT, host: await hostPort() }, { container: EMULATOR_TLS_PORT, host: await hostPort() });
    const mediaPort = await this.placeMedia(media, hostPort);
    const rtmpPort = await this.placeIngest('EMULATOR_RTMP_PORT', EMULATOR_RTMP_PORT, config?.rtmpPort, hostPort);
    const rtmpsPort = await this.placeIngest('EMULATOR_RTMPS_PORT', EMULATOR_RTMPS_PORT, config?.rtmpsPort, hostPort);
    if (this.recipe === 'package') await buildPackageImage(this.imageName.string);
    else if (this.recipe !== undefined) await buildCheckoutImage(this.recipe.checkout, this.imageName.string);
    const org = this.fixtures.organizations[0]!;
    return new StartedMeetingsEmulatorContainer(await super.start(), org.id, org.api_key, { mediaPort, rtmpPort, rtmpsPort });
  }

  /**
   * Media from a page on this machine to the container: the ICE candidates must name an address
   * and port the page reaches. A port is published under its own number (a free one of this
   * machine, unless EMULATOR_MEDIA_PORT names one), UDP and TCP, and the emulator inside listens on
   * that number and announces the engine's host (127.0.0.1 for a local engine) unless
   * EMULATOR_MEDIA_ANNOUNCE says otherwise. Answers the media port (with a range: its first).
   */
  private async placeMedia(configured: MediaPorts, hostPort: () => Promise<number>): Promise<number> {
    const given = this.environment.EMULATOR_MEDIA_PORT !== undefined && this.environment.EMULATOR_MEDIA_PORT !== '';
    const ports = given ? configured : await hostPort();
    const udp = portsOf(ports);
    const tcp = udp[0]!;
    if (tcp === 0) throw new Error('MeetingsEmulatorContainer: EMULATOR_MEDIA_PORT=0 cannot be published; leave it unset for a free port, or name one');
    this.withExposedPorts(...udp.map((port) => ({ container: port, host: port, protocol: 'udp' as const })), { container: tcp, host: tcp, protocol: 'tcp' });
    // The image's own media port is published too (on a free port), though nothing listens there
    // then: podman lists every port the image exposes among the container's bindings, and
    // Testcontainers waits until each of them is bound.
    if (!udp.includes(EMULATOR_MEDIA_PORT)) this.withExposedPorts({ container: EMULATOR_MEDIA_PORT, host: await hostPort(), protocol: 'udp' });
    if (tcp !== EMULATOR_MEDIA_PORT) this.withExposedPorts({ container: EMULATOR_MEDIA_PORT, host: await hostPort() });
    const environment: Record<string, string> = {};
    if (!given) environment.EMULATOR_MEDIA_PORT = String(ports);
    if (!this.environment.EMULATOR_MEDIA_ANNOUNCE) environment.EMULATOR_MEDIA_ANNOUNCE = await engineAddress();
    this.withEnvironment(environment);
    return tcp;
  }

  /**
   * An RTMP ingest port, published under its own number for the same reason as the media port:
   * the livestreams' ingest_server names the port the emulator inside listens on, and an encoder
   * on this machine must reach it there. Unless `variable` names one, a free port of this machine
   * is taken; 0 turns that ingest off (nothing is published for it). Answers the port, or null.
   */
  private async placeIngest(
    variable: 'EMULATOR_RTMP_PORT' | 'EMULATOR_RTMPS_PORT',
    imagePort: number,
    configured: number | null | undefined,
    hostPort: () => Promise<number>,
  ): Promise<number | null> {
    const given = this.environment[variable] !== undefined && this.environment[variable] !== '';
    const port = given ? (configured ?? null) : await hostPort();
    // As with the media port: podman lists the image's own port among the bindings, so it is published too.
    if (port !== imagePort) this.withExposedPorts({ container: imagePort, host: await hostPort() });
    if (port === null) return null;
    this.withExposedPorts({ container: port, host: port });
    this.withEnvironment({ [variable]: String(port) });
    return port;
  }
}

/** The address a page on this machine reaches the engine's published ports at: its host, as an address. */
async function engineAddress(): Promise<string> {
  const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
  if (host === 'localhost') return '127.0.0.1';
  return isIP(host) ? host : (await lookup(host)).address;
}

/** The image of a checkout: its own Dockerfile, which builds from the sources. */
async function buildCheckoutImage(context: string, tag: string): Promise<void> {
  if (!existsSync(path.join(context, 'Dockerfile'))) {
    throw new Error(`MeetingsEmulatorContainer: no Dockerfile in ${context}; withBuildContext() takes a checkout of the repository`);
  }
  // Kept after the run so the next build reuses its layers.
  await GenericContainer.fromDockerfile(context).build(tag, { deleteOnExit: false });
}

/**
 * The image of the installed package (container/Dockerfile): a temporary build context holding
 * only what the image is made of, so the engine is sent a few megabytes whatever surrounds the
 * package, and the package's folder is never written to.
 */
async function buildPackageImage(tag: string): Promise<void> {
  const needed = [...PACKAGE_IMAGE_FILES.map(([from]) => from), 'docs'];
  const missing = needed.filter((from) => !existsSync(path.join(PACKAGE_ROOT, from)));
  if (missing.length > 0) {
    throw new Error(
      `MeetingsEmulatorContainer: ${PACKAGE_ROOT} lacks ${missing.join(', ')}, which its image is built from; is the package built (npm run build)?`,
    );
  }
  const context = mkdtempSync(path.join(tmpdir(), 'meetings-emulator-image-'));
  try {
    for (const [from, to] of PACKAGE_IMAGE_FILES) {
      mkdirSync(path.dirname(path.join(context, to)), { recursive: true });
      cpSync(path.join(PACKAGE_ROOT, from), path.join(context, to), { recursive: true });
    }
    // The documentation pages the landing page links to (GET /_emulator/docs/<page>.md), not their images.
    mkdirSync(path.join(context, 'docs'));
    for (const page of readdirSync(path.join(PACKAGE_ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      cpSync(path.join(PACKAGE_ROOT, 'docs', page), path.join(context, 'docs', page));
    }
    // Kept after the run so the next build reuses its layers.
    await GenericContainer.fromDockerfile(context).build(tag, { deleteOnExit: false });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

export class StartedMeetingsEmulatorContainer extends AbstractStartedContainer {
  /** Base URL on the mapped port, e.g. http://127.0.0.1:32771 */
  readonly url: string;
  /**
   * The TLS listener on its mapped port, e.g. https://localhost:32772: its host and port are the web
   * SDK's `baseURI`. The certificate made in the container names localhost and the SDK's hosts.
   */
  readonly tlsUrl: string;
  /** The first organization of the fixtures. */
  readonly orgId: string;
  readonly apiKey: string;
  /** Ready-to-use v2 header value: `Basic base64(orgId:apiKey)`. */
  readonly authHeader: string;
  /**
   * The media port, published under its own number (UDP, and TCP for pages that cannot send UDP):
   * a page on this machine sends its camera there, as the emulator's ICE candidates tell it.
   */
  readonly mediaPort: number;
  /**
   * The RTMPS and plain RTMP ingest ports, each published under its own number, so the
   * livestreams' `ingest_server` (rtmps://127.0.0.1:<rtmpsPort>/app/) reaches the container from
   * this machine; null where EMULATOR_RTMPS_PORT / EMULATOR_RTMP_PORT=0 turned it off.
   */
  readonly rtmpsPort: number | null;
  readonly rtmpPort: number | null;

  constructor(started: StartedTestContainer, orgId: string, apiKey: string, ports: { mediaPort: number; rtmpPort: number | null; rtmpsPort: number | null }) {
    super(started);
    this.mediaPort = ports.mediaPort;
    this.rtmpPort = ports.rtmpPort;
    this.rtmpsPort = ports.rtmpsPort;
    this.url = `http://${started.getHost()}:${started.getMappedPort(EMULATOR_PORT)}`;
    const host = started.getHost() === '127.0.0.1' ? 'localhost' : started.getHost();
    this.tlsUrl = `https://${host}:${started.getMappedPort(EMULATOR_TLS_PORT)}`;
    this.orgId = orgId;
    this.apiKey = apiKey;
    this.authHeader = `Basic ${Buffer.from(`${orgId}:${apiKey}`).toString('base64')}`;
  }

  /** Moves the clock forward by `ms`, running every job that falls due, in time order. */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new Error('advance(ms) takes a non-negative number');
    await this.control('POST', '/_emulator/clock/advance', { ms });
  }

  /** Moves the clock forward to `iso` (never back). */
  async setNow(iso: string): Promise<void> {
    await this.control('PUT', '/_emulator/clock', { now: iso });
  }

  /** Everything back to the fixtures: organizations, resources, clock, ids, jobs, deliveries. */
  async reset(): Promise<void> {
    await this.control('POST', '/_emulator/reset');
  }

  /** The webhook delivery log, newest first, once no attempt is in flight. */
  async deliveries(filter: DeliveryFilter = {}): Promise<DeliveryView[]> {
    const query = new URLSearchParams({ wait: 'true', limit: String(LIMITS.deliveriesPerPageMax) });
    if (filter.orgId !== undefined) query.set('org_id', filter.orgId);
    if (filter.webhookId !== undefined) query.set('webhook_id', filter.webhookId);
    if (filter.event !== undefined) query.set('event', filter.event);
    if (filter.status !== undefined) query.set('status', filter.status);
    const body = (await this.control('GET', `/_emulator/webhooks/deliveries?${query}`)) as { deliveries: DeliveryView[] };
    return body.deliveries;
  }

  private async control(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as unknown;
  }
}
