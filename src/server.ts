#!/usr/bin/env node
// The only file that reads argv/env and listens. SIGTERM/SIGINT close gracefully.
import type { AddressInfo } from 'node:net';
import { createServer, type ServerResponse } from 'node:http';
import { createApp } from './app.js';
import { helpText, parseConfig, defaultConfig, type Config } from './config.js';
import { buildDeps } from './container.js';
import { RealTimeDriver } from './core/scheduler.js';
import { realNow } from './core/clock.js';
import { FixtureError } from './store/fixtures.js';
import { loadStateFile, saveStateFile } from './state/state-file.js';

const ATTEMPT_GRACE_MS = 1_000;
const REQUEST_GRACE_MS = 1_500;

/** Waits for `work`, but at most `ms` (real time). */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}

function fail(reason: string): never {
  process.stderr.write(`meetings-emulator: ${reason}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const parsed = parseConfig(process.argv.slice(2), process.env);
  if (!parsed.ok) fail(parsed.reason);
  if ('help' in parsed) {
    process.stdout.write(helpText());
    return;
  }
  let config: Config = parsed.config;
  // Listen first, so that with --port 0 the URLs the emulator hands out carry the real port.
  const server = createServer();
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch((err: NodeJS.ErrnoException) => fail(`cannot listen on ${config.host}:${config.port} (${err.code ?? err.message})`));
  const port = (server.address() as AddressInfo).port;
  if (config.port !== port && !process.argv.some((a) => a.startsWith('--public-url')) && !process.env.EMULATOR_PUBLIC_URL) {
    config = defaultConfig({ ...config, port, publicUrl: '' });
  }
  let deps;
  try {
    deps = buildDeps(config);
  } catch (err) {
    if (err instanceof FixtureError) fail(`invalid fixtures: ${err.message}`);
    throw err;
  }
  if (config.stateFile) {
    try {
      if (loadStateFile(config.stateFile, deps.state)) deps.logger.info({ file: config.stateFile }, 'state loaded');
    } catch (err) {
      if (err instanceof FixtureError) fail(`invalid state file: ${err.message}`);
      throw err;
    }
  }
  server.on('request', createApp(deps));

  const driver = new RealTimeDriver(deps.scheduler, deps.clock);
  driver.start();

  const org = deps.fixtures.organizations[0]!;
  const basic = Buffer.from(`${org.id}:${org.api_key}`).toString('base64');
  process.stdout.write(
    [
      `meetings-emulator listening on ${config.publicUrl}`,
      `  clock: ${deps.clock.mode}${deps.clock.mode === 'real' && config.timeScale !== 1 ? ` (x${config.timeScale})` : ''}, now ${new Date(deps.clock.now()).toISOString()}`,
      `  organization: ${org.id} (${org.name})`,
      `  v2 header: Authorization: Basic ${basic}`,
      `  v1 header: Authorization: Bearer ${org.api_key}`,
      `  control API: ${config.publicUrl}/_emulator/health, OpenAPI at ${config.publicUrl}/_emulator/openapi.json`,
      '',
    ].join('\n'),
  );

  const saveState = () => {
    if (!config.stateFile) return;
    try {
      saveStateFile(config.stateFile, deps.state);
    } catch (err) {
      deps.logger.error({ err, file: config.stateFile }, 'cannot write the state file');
    }
  };
  if (config.stateFile && config.stateSaveInterval > 0) setInterval(saveState, config.stateSaveInterval * 1000).unref();

  let closing = false;
  // Responses in flight, so that a shutdown can let them finish and then close their connections.
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // A keep-alive connection that just went idle would hold server.close() open until it timed out.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });

  /**
   * SIGTERM/SIGINT. No new connection is accepted. Requests and webhook attempts in flight get
   * up to ATTEMPT_GRACE_MS (from the signal) to finish. The attempts still running then are cut
   * off: the outbox records them as interrupted and retries them, so the state file keeps them
   * pending, and a request waiting on them (`?wait=true`) can answer. Requests get up to
   * REQUEST_GRACE_MS in all. Then the state is saved (after the requests, so that what they did
   * is in it) and the process exits 0: within 2 s, even with a receiver that never answers.
   */
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const startedAt = realNow();
    deps.logger.info({ signal }, 'shutting down');
    driver.stop();
    const requestsDone = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Answers not sent yet close their connection once sent.
    for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    // The state file carries both signing keys. Making one never used so far takes a few hundred
    // ms: spent now, while the requests in flight finish, rather than after them.
    if (config.stateFile) void [deps.keys.webhooks, deps.keys.participantTokens];
    const elapsed = () => realNow() - startedAt;
    await within(Promise.all([requestsDone, deps.webhooks.outbox.idle()]), ATTEMPT_GRACE_MS - elapsed());
    await within(deps.webhooks.outbox.interrupt(), 200);
    await within(requestsDone, REQUEST_GRACE_MS - elapsed());
    server.closeAllConnections();
    saveState();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`meetings-emulator: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
