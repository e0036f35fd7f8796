// Starting and stopping a listening emulator: one sequence for both entry points, the command
// line (server.ts) and the in-process API (startEmulator in index.ts), so both start alike and
// shut down alike.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { answerClientError } from './http/client-error.js';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { withListenPort, type Config } from './config.js';
import { buildDeps, type BuildOptions, type Deps } from './container.js';
import { realNow } from './core/clock.js';
import { RealTimeDriver } from './core/scheduler.js';
import { loadStateFile, saveStateFile } from './state/state-file.js';
import { FixtureError } from './store/fixtures.js';

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

/** What to do when the port or host cannot be had: the usual causes, with the flags and env vars that fix them. */
function listenHint(code: string | undefined, config: Config): string {
  switch (code) {
    case 'EADDRINUSE':
      return `: port ${config.port} is taken, by another emulator perhaps; stop it, or pick another port with --port <n> or PORT=<n> (0 picks a free one)`;
    case 'EACCES':
      return `: port ${config.port} needs privileges; pick one above 1023 with --port <n> or PORT=<n> (0 picks a free one)`;
    case 'EADDRNOTAVAIL':
      return `: ${config.host} is not an address of this machine; pick one with --host <address> or HOST=<address> (127.0.0.1, or 0.0.0.0 for every interface)`;
    case 'ENOTFOUND':
      return `: the host name ${config.host} does not resolve; pick an address with --host <address> or HOST=<address> (127.0.0.1, or 0.0.0.0 for every interface)`;
    default:
      return '';
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Listens on config.host:config.port, then builds the emulator. Listening comes first so that
 * with port 0 the URLs the emulator hands out carry the real port. Loads config.stateFile when
 * it exists and saves it every config.stateSaveInterval seconds.
 */
export async function listenEmulator(initial: Config, opts: BuildOptions = {}): Promise<ListeningEmulator> {
  const server = createServer();
  server.keepAliveTimeout = 5_000;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(initial.port, initial.host, () => resolve());
  }).catch((err: NodeJS.ErrnoException) => {
    throw new StartError(`cannot listen on ${initial.host}:${initial.port} (${err.code ?? err.message})${listenHint(err.code, initial)}`, { cause: err });
  });
  const config = withListenPort(initial, (server.address() as AddressInfo).port);

  let deps: Deps;
  try {
    deps = buildDeps(config, opts);
    if (config.stateFile) {
      try {
        if (loadStateFile(config.stateFile, deps.state)) deps.logger.info({ file: config.stateFile }, 'state loaded');
      } catch (err) {
        throw err instanceof FixtureError ? new StartError(`invalid state file: ${err.message}`, { cause: err }) : err;
      }
    }
  } catch (err) {
    await closeServer(server);
    throw err instanceof FixtureError ? new StartError(`invalid fixtures: ${err.message}`, { cause: err }) : err;
  }

  // Responses in flight, so that a shutdown can let them finish and then close their connections.
  const inFlight = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // A keep-alive connection that just went idle would hold server.close() open until it timed out.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  server.on('request', createApp(deps));

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
    // Event streams never finish by themselves: ended now, they hold no grace period open.
    deps.feed.close();
    const requestsDone = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Answers not sent yet close their connection once sent.
    for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    await within(Promise.all([requestsDone, deps.webhooks.outbox.idle()]), ATTEMPT_GRACE_MS - elapsed());
    await within(deps.webhooks.outbox.interrupt(), INTERRUPT_WAIT_MS);
    await within(requestsDone, REQUEST_GRACE_MS - elapsed());
    server.closeAllConnections();
    // The state file carries both signing keys. Making one never used so far blocks for a moment:
    // done here, after the grace periods, so that it cuts no request or attempt short.
    if (config.stateFile) deps.keys.warm();
    saveState();
    await requestsDone;
  };

  return {
    server,
    config,
    deps,
    url: config.publicUrl,
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}
