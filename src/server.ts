#!/usr/bin/env node
// The only file that reads argv/env and listens. SIGTERM/SIGINT close gracefully.
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createApp } from './app.js';
import { helpText, parseConfig, defaultConfig, type Config } from './config.js';
import { buildDeps } from './container.js';
import { RealTimeDriver } from './core/scheduler.js';
import { FixtureError } from './store/fixtures.js';
import { loadStateFile, saveStateFile } from './state/state-file.js';

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
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    deps.logger.info({ signal }, 'shutting down');
    driver.stop();
    const exit = () => {
      // After the in-flight requests, so that what they did is saved too.
      saveState();
      process.exit(0);
    };
    server.close(exit);
    server.closeIdleConnections();
    // In-flight requests get a moment to finish; then the process goes regardless.
    setTimeout(() => {
      server.closeAllConnections();
      exit();
    }, 1_500).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`meetings-emulator: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
