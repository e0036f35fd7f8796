// Starting and stopping a listening emulator: one sequence for both entry points, the command
// line (server.ts) and the in-process API (startEmulator in index.ts), so both start alike and
// shut down alike.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answerClientError } from './http/client-error.js';
import type { AddressInfo, Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApp } from './app.js';
import { messageClasses } from './http/message-classes.js';
import { tlsUrl, withListenPort, type Config } from './config.js';
import { buildDeps, type BuildOptions, type Deps } from './container.js';
import { realNow } from './core/clock.js';
import { RealTimeDriver } from './core/scheduler.js';
import { loadStateFile, saveStateFile } from './state/state-file.js';
import { FixtureError } from './store/fixtures.js';
import { createTlsListener, credentialsFromFiles, TlsFileError, TlsIdentity, type TlsListener } from './realtime/tls.js';
import { RtmpIngest, type IngestListening } from './realtime/ingest/rtmp-ingest.js';
import { silentLogger } from './logger.js';

/** How long webhook attempts in flight may still run after close() starts (real ms). */
const ATTEMPT_GRACE_MS = 1_000;
/** How long requests in flight may still run after close() starts, in all (real ms). */
const REQUEST_GRACE_MS = 1_500;
/** How long cut-off attempts get to be recorded as interrupted (real ms). */
const INTERRUPT_WAIT_MS = 200;

/** The emulator could not start; the message is one line, fit for the command line. */
export class StartError extends Error {}

export interface ListeningEmulator {
  server: Server;
  /** The config as run: its port and (unless one was given) public URL are the real ones. */
  config: Config;
  deps: Deps;
  /** The public URL (config.publicUrl). */
  url: string;
  /** The TLS listener's URL (`https://localhost:4443`), undefined when it is off (config.tlsPort null). */
  tlsUrl: string | undefined;
  /** The RTMP ingest: its connections (config.rtmpPort and config.rtmpsPort are the ports it listens on). */
  ingest: RtmpIngest;
  /**
   * Graceful shutdown (docs/running.md, "Shutdown"). No new connection is accepted. Requests and webhook
   * attempts in flight get up to ATTEMPT_GRACE_MS to finish. The attempts still running then are
   * cut off: the outbox records them as interrupted and retries them, so the state file keeps
   * them pending, and a request waiting on them (`?wait=true`) can answer. Requests get up to
   * REQUEST_GRACE_MS in all; then every connection is closed and the state file (when there is
   * one) is saved, after the requests, so that what they did is in it. Calling it again returns
   * the same promise.
   */
  close(): Promise<void>;
}

/** Waits for `work`, but at most `ms` (real time). */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}

/** A port of the emulator, as the messages about it name it. */
interface PortOption {
  flag: string;
  env: string;
  zero: string;
}
const PLAIN_PORT: PortOption = { flag: '--port', env: 'PORT', zero: '0 picks a free one' };
const TLS_PORT: PortOption = { flag: '--tls-port', env: 'EMULATOR_TLS_PORT', zero: '0 turns it off' };

/** What to do when the port or host cannot be had: the usual causes, with the flags and env vars that fix them. */
function listenHint(code: string | undefined, host: string, port: number, option: PortOption): string {
  const pick = `${option.flag} <n> or ${option.env}=<n> (${option.zero})`;
  switch (code) {
    case 'EADDRINUSE':
      return `: port ${port} is taken, by another emulator perhaps; stop it, or pick another port with ${pick}`;
    case 'EACCES':
      return `: port ${port} needs privileges; pick one above 1023 with ${pick}`;
    case 'EADDRNOTAVAIL':
      return `: ${host} is not an address of this machine; pick one with --host <address> or HOST=<address> (127.0.0.1, or 0.0.0.0 for every interface)`;
    case 'ENOTFOUND':
      return `: the host name ${host} does not resolve; pick an address with --host <address> or HOST=<address> (127.0.0.1, or 0.0.0.0 for every interface)`;
    default:
      return '';
  }
}

/** Listens, or throws a StartError that says what to do. Resolves with the port listened on. */
async function listenOn(server: NetServer, host: string, port: number, option: PortOption): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: NodeJS.ErrnoException) => {
    throw new StartError(`cannot listen on ${host}:${port} (${err.code ?? err.message})${listenHint(err.code, host, port, option)}`, { cause: err });
  });
  return (server.address() as AddressInfo).port;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The listeners of a start that stops half-way: nothing is connected yet. */
async function closeListeners(server: Server, tls: TlsListener | undefined): Promise<void> {
  await Promise.all([closeServer(server), tls && new Promise<void>((resolve) => tls.listener.close(() => resolve()))]);
}

/**
 * Listens on config.host:config.port (and config.tlsPort unless it is null), then builds the
 * emulator. Listening comes first so that with port 0 the URLs the emulator hands out carry the
 * real port. Loads config.stateFile when it exists and saves it every config.stateSaveInterval seconds.
 */
/**
 * How long an idle keep-alive connection stays open (real ms). Clients (undici, browsers) keep a
 * pooled connection for a little less than the server says; one that reuses it as the server
 * closes it gets a reset. A test that blocks its own event loop for a few seconds (an ffprobe run
 * synchronously) cannot close its pooled connection in time, so the emulator keeps them longer
 * than such a pause, as load balancers do. The stop closes idle ones at once.
 */
const KEEP_ALIVE_MS = 65_000;

export async function listenEmulator(initial: Config, opts: BuildOptions = {}): Promise<ListeningEmulator> {
  let tlsIdentity: TlsIdentity;
  try {
    // Read and checked before anything listens: a bad file is a start error, not a failed handshake later.
    tlsIdentity = opts.tls ?? new TlsIdentity(credentialsFromFiles(initial.tlsCert, initial.tlsKey));
  } catch (err) {
    throw err instanceof TlsFileError ? new StartError(err.message, { cause: err }) : err;
  }
  const classes = messageClasses();
  const server = createServer(classes.options);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Longer than the keep-alive, as Node wants, so that an idle connection's next request is never cut.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  server.on('clientError', answerClientError);
  const port = await listenOn(server, initial.host, initial.port, PLAIN_PORT);
  let deps: Deps | undefined;
  let tls: TlsListener | undefined;
  let tlsPort: number | null = null;
  if (initial.tlsPort !== null) {
    tls = createTlsListener(tlsIdentity, (err) => deps?.logger.error({ err }, 'cannot make the TLS certificate'), classes.options);
    tls.server.keepAliveTimeout = KEEP_ALIVE_MS;
    tls.server.headersTimeout = KEEP_ALIVE_MS + 1_000;
    tls.server.on('clientError', answerClientError);
    try {
      tlsPort = await listenOn(tls.listener, initial.host, initial.tlsPort, TLS_PORT);
    } catch (err) {
      await closeServer(server);
      throw err;
    }
  }
  // The RTMP ingest listens before the emulator is built, so that the livestreams' ingest_server names its real ports.
  const ingest = new RtmpIngest({
    get logger() {
      return deps?.logger ?? silentLogger();
    },
    byStreamKey: (key) => deps?.services.livestreams.byStreamKey(key),
    refusal: () => (!deps ? 'The emulator is starting' : deps.livestreamMedia.real ? undefined : `This emulator takes no encoder: ${deps.livestreamMedia.why}`),
    ingest: (l, connection) => deps?.signalling.ingest(l, connection) ?? Promise.resolve(undefined),
    tls: tlsIdentity,
  });
  let ingestPorts: IngestListening;
  try {
    ingestPorts = await ingest.listen(initial.host, initial.rtmpPort, initial.rtmpsPort);
  } catch (err) {
    await Promise.all([closeListeners(server, tls), ingest.close()]);
    const e = err as NodeJS.ErrnoException;
    throw new StartError(
      `cannot listen for RTMP on ${initial.host} (${e.code ?? e.message})${e.code === 'EADDRINUSE' ? ': a port is taken; pick others with --rtmp-port and --rtmps-port (0 turns one off)' : ''}`,
      {
        cause: err,
      },
    );
  }
  const config = withListenPort(initial, port, tlsPort, { rtmpPort: ingestPorts.rtmp, rtmpsPort: ingestPorts.rtmps });

  try {
    deps = buildDeps(config, { ...opts, tls: tlsIdentity, ingest });
    if (config.stateFile) {
      try {
        if (loadStateFile(config.stateFile, deps.state)) deps.logger.info({ file: config.stateFile }, 'state loaded');
      } catch (err) {
        throw err instanceof FixtureError ? new StartError(`invalid state file: ${err.message}`, { cause: err }) : err;
      }
    }
  } catch (err) {
    await Promise.all([closeListeners(server, tls), ingest.close()]);
    throw err instanceof FixtureError ? new StartError(`invalid fixtures: ${err.message}`, { cause: err }) : err;
  }

  const built = deps;
  // Both listeners serve the same app, and hand their upgrades to the signalling socket.
  const servers = tls ? [server, tls.server] : [server];
  // Responses in flight, so that a shutdown can let them finish and then close their connections.
  const inFlight = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;
  const closeIdle = () => {
    for (const s of servers) s.closeIdleConnections();
  };
  // One function for every response, called with the response as `this` (a response closes
  // once): no closure and no once() wrapper to make per request.
  function settled(this: ServerResponse): void {
    inFlight.delete(this);
    // A keep-alive connection that just went idle would hold server.close() open until it timed out.
    if (closing) setImmediate(closeIdle);
  }
  const app = createApp(deps);
  classes.adopt(app);
  // One listener that tracks the response and hands it to the app: a server with one 'request'
  // listener calls it directly, with two it copies the list on every request.
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    res.on('close', settled);
    app(req, res);
  };
  for (const s of servers) {
    s.on('request', onRequest);
    s.on('upgrade', (req, socket: Duplex, head: Buffer) => built.signalling.upgrade(req, socket, head));
  }

  const driver = new RealTimeDriver(deps.scheduler, deps.clock);
  driver.start();

  const saveState = () => {
    if (!config.stateFile) return;
    try {
      saveStateFile(config.stateFile, deps.state);
    } catch (err) {
      deps.logger.error({ err, file: config.stateFile }, 'cannot write the state file');
    }
  };
  const saver = config.stateFile && config.stateSaveInterval > 0 ? setInterval(saveState, config.stateSaveInterval * 1000).unref() : undefined;

  const shutdown = async () => {
    const startedAt = realNow();
    const elapsed = () => realNow() - startedAt;
    driver.stop();
    clearInterval(saver);
    // Event streams and sockets never finish by themselves: ended now, they hold no grace period open.
    built.feed.close();
    // Uploads to apps' storage in flight stop: their recordings end ERRORED, saying the emulator stopped.
    built.storage.close();
    // Encoders' connections end: their livestreams go IDLE before the rooms close.
    const ingestClosed = ingest.close();
    const socketsClosed = built.signalling.close();
    const requestsDone = Promise.all([
      new Promise<void>((resolve) => server.close(() => resolve())),
      // The TLS connections belong to its listener, which waits for them; its HTTPS server never listened.
      tls && new Promise<void>((resolve) => tls.listener.close(() => resolve())),
    ]);
    closeIdle();
    // Answers not sent yet close their connection once sent.
    for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    await within(Promise.all([requestsDone, socketsClosed, built.webhooks.outbox.idle()]), ATTEMPT_GRACE_MS - elapsed());
    await within(built.webhooks.outbox.interrupt(), INTERRUPT_WAIT_MS);
    await within(requestsDone, REQUEST_GRACE_MS - elapsed());
    for (const s of servers) s.closeAllConnections();
    // The state file carries both signing keys. Making one never used so far blocks for a moment:
    // done here, after the grace periods, so that it cuts no request or attempt short.
    if (config.stateFile) deps.keys.warm();
    saveState();
    await Promise.all([requestsDone, socketsClosed, ingestClosed]);
    // The media plane has ended, and its encoders with it: the recordings' files go.
    deps.services.recordings.files.close();
  };

  return {
    server,
    config,
    deps,
    url: config.publicUrl,
    tlsUrl: tlsUrl(config),
    ingest,
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}
