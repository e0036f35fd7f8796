// The CLI as a user runs it: a real process, real flags, real signals.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OPTIONS } from '../../src/config.js';
import { runCli, startCli, type RunningCli } from '../helpers/spawn-emulator.js';
import { withFfmpeg } from '../helpers/media-probe.js';

let running: RunningCli | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
});

describe('meetings-emulator CLI', () => {
  it('--help prints every option with its env var and default, from the one options table', () => {
    const r = runCli(['--help']);
    expect(r.status).toBe(0);
    for (const o of OPTIONS) {
      expect(r.stdout).toContain(o.flag);
      expect(r.stdout).toContain(`env ${o.env}; default ${o.defaultText}`);
    }
  });

  it('exits 2 with a hint on an unknown flag', () => {
    const r = runCli(['--prot', '4700']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown option --prot (did you mean --port?)');
  });

  it.each([
    [['--port', 'abc'], {}, '--port must be a whole number, got "abc"'],
    [['--clock', 'sundial'], {}, '--clock must be one of real, manual, got "sundial"'],
    [[], { EMULATOR_CLOCK: 'sundial' }, 'EMULATOR_CLOCK must be one of real, manual, got "sundial"'],
    [['--port', '0', '--fixtures', '/nonexistent/fixtures.json'], {}, 'invalid fixtures: /nonexistent/fixtures.json: cannot be read (ENOENT)'],
    [['--tls-port', 'https'], {}, '--tls-port must be a whole number, got "https"'],
    [['--port', '0', '--tls-cert', '/nonexistent/cert.pem'], {}, '--tls-cert and --tls-key go together: give both, or neither'],
    [['--port', '0', '--tls-cert', '/nonexistent/cert.pem', '--tls-key', '/nonexistent/key.pem'], {}, 'cannot read --tls-cert /nonexistent/cert.pem (ENOENT)'],
    [
      ['--port', '0', '--tls-cert', 'package.json', '--tls-key', 'package.json'],
      {},
      '--tls-cert package.json and --tls-key package.json are not a PEM certificate and its private key',
    ],
  ])('exits 2 with a one-line reason for %j %j', (args, env, reason) => {
    const r = runCli(args, env);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(reason);
  });

  it('starts, prints its URL, clock mode and the Authorization header, answers, and stops promptly on SIGTERM', async () => {
    running = await startCli(['--clock', 'manual', '--seed', 'cli']);
    const out = running.stdout();
    expect(out).toContain('clock: manual, now 2026-01-01T00:00:00.000Z');
    const header = /v2 header: Authorization: (Basic \S+)/.exec(out)![1]!;
    const health = await fetch(`${running.url}/_emulator/health`);
    expect(health.status).toBe(200);
    const created = await fetch(`${running.url}/v2/meetings`, {
      method: 'POST',
      headers: { authorization: header, 'content-type': 'application/json' },
      body: '{"title":"cli"}',
    });
    expect(created.status).toBe(201);
    const stopped = await running.stop('SIGTERM');
    running = undefined;
    expect(stopped.code).toBe(0);
    // Wall clock, so a margin: nothing in flight means no grace period, only CPU work that a loaded 2-core machine may make 4× slower; the exact 1 s grace is pinned on fake timers in test/integration/in-process-shutdown.test.ts.
    expect(stopped.ms).toBeLessThan(5_000);
  });

  it('--version prints the version of package.json', () => {
    const r = runCli(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('0.1.0\n');
  });

  it('a port in use stops it with exit 2 and says what to do: another port, or --port 0', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = runCli(['--port', String(port)]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE): port ${port} is taken`);
      expect(r.stderr).toContain('--port <n> or PORT=<n> (0 picks a free one)');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a TLS port in use stops it with exit 2 and says what to do: another port, or --tls-port 0', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = runCli(['--port', '0', '--tls-port', String(port)]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE): port ${port} is taken`);
      expect(r.stderr).toContain('--tls-port <n> or EMULATOR_TLS_PORT=<n> (0 turns it off)');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('names the TLS URL, the SDK base and the certificate in its start lines; none with --tls-port 0', async () => {
    // A port free a moment ago: the command line's 0 turns the listener off rather than picking one.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    running = await startCli(['--tls-port', String(port)]);
    expect(running.stdout()).toContain(
      `TLS (web SDK): https://localhost:${port}, baseURI 'localhost:${port}'; certificate at ${running.url}/_emulator/tls/certificate`,
    );
    const cert = await fetch(`${running.url}/_emulator/tls/certificate`);
    expect(cert.status).toBe(200);
    expect(await cert.text()).toContain('-----BEGIN CERTIFICATE-----');
    await running.stop('SIGTERM');
    running = await startCli([]);
    expect(running.stdout()).not.toContain('TLS');
    expect((await fetch(`${running.url}/_emulator/tls/certificate`)).status).toBe(404);
  });

  it("names the RTMPS and RTMP ingest in its start lines and health, and gives the RTMPS one as the livestreams' ingest_server; off with 0", async () => {
    const free = async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const port = (probe.address() as { port: number }).port;
      await new Promise((resolve) => probe.close(resolve));
      return port;
    };
    const [rtmp, rtmps] = [await free(), await free()];
    running = await startCli(['--rtmp-port', String(rtmp), '--rtmps-port', String(rtmps)]);
    expect(running.stdout()).toContain(
      `  RTMP ingest: rtmps://127.0.0.1:${rtmps}/app/<stream key> (the emulator's certificate), rtmp://127.0.0.1:${rtmp}/app/<stream key>\n`,
    );
    const health = (await (await fetch(`${running.url}/_emulator/health`)).json()) as { livestreams: { ingest: unknown } };
    expect(health.livestreams.ingest).toEqual({
      rtmps: `rtmps://127.0.0.1:${rtmps}/app/`,
      rtmp: `rtmp://127.0.0.1:${rtmp}/app/`,
      connections: 0,
      publishing: 0,
    });
    const auth = `Basic ${Buffer.from('00000000-0000-4000-8000-000000000001:emulator-api-key').toString('base64')}`;
    const created = await fetch(`${running.url}/v2/livestreams`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await created.json()) as { data: { ingest_server: string } }).data.ingest_server).toBe(`rtmps://127.0.0.1:${rtmps}/app/`);
    await running.stop('SIGTERM');
    running = await startCli([]);
    expect(running.stdout()).toContain('  RTMP ingest: off (--rtmps-port, --rtmp-port)\n');
  });

  it.each([
    [[], 'media listens on 127.0.0.1, one UDP and one TCP port for every transport, picked when the first page connects; pages are offered 127.0.0.1'],
    [
      ['--host', '0.0.0.0', '--media-port', '4710', '--media-announce', '127.0.0.1'],
      'media listens on 0.0.0.0, UDP and TCP port 4710, shared by every transport; pages are offered 127.0.0.1',
    ],
    [
      ['--media-port', '40000-40019'],
      'media listens on 127.0.0.1, a UDP port of its own for each transport from 40000-40019, TCP 40000; pages are offered 127.0.0.1',
    ],
  ])('says where media listens in its start lines: %j', async (args, line) => {
    running = await startCli(['--tls-port', '0', ...args]);
    expect(running.stdout()).toContain(`  ${line}\n`);
    await running.stop('SIGTERM');
    running = undefined;
  });

  it('says what recordings hold in its start lines and its health: the meeting with ffmpeg, the sample without it, and why', async () => {
    running = await startCli(['--tls-port', '0', '--ffmpeg', '/nowhere/ffmpeg']);
    expect(running.stdout()).toContain(
      '  recordings: every recording is the sample file: /nowhere/ffmpeg is not an executable file (install ffmpeg, or give --ffmpeg)\n',
    );
    const health = (await (await fetch(`${running.url}/_emulator/health`)).json()) as { recordings: Record<string, unknown> };
    expect(health.recordings).toEqual({
      mode: 'sample',
      ffmpeg: null,
      reason: 'every recording is the sample file: /nowhere/ffmpeg is not an executable file (install ffmpeg, or give --ffmpeg)',
      recording: 0,
      disk_bytes: 0,
      disk_limit_bytes: 4096 * 1024 * 1024,
    });
    await running.stop('SIGTERM');
    running = await startCli(['--tls-port', '0', '--recordings', 'sample']);
    expect(running.stdout()).toContain('  recordings: every recording is the sample file (--recordings sample)\n');
    await running.stop('SIGTERM');
    if (!withFfmpeg) return;
    running = await startCli(['--tls-port', '0', '--recording-disk-limit', '100']);
    expect(running.stdout()).toMatch(/\n {2}recordings: they hold the meeting, made with \/\S*ffmpeg\n/);
    const real = (await (await fetch(`${running.url}/_emulator/health`)).json()) as { recordings: Record<string, unknown> };
    expect(real.recordings).toMatchObject({ mode: 'real', reason: null, disk_limit_bytes: 100 * 1024 * 1024 });
    expect(real.recordings.ffmpeg).toMatch(/ffmpeg$/);
    await running.stop('SIGTERM');
    running = undefined;
  });

  it("says in its start lines and health where recordings with a storage_config go: SFTP to this machine's loopback always, other SFTP hosts once allowed, other types with an endpoint", async () => {
    running = await startCli([]);
    expect(running.stdout()).toContain(
      "  storage uploads: sftp=this machine's loopback; aws, digitalocean, azure not sent anywhere (--storage-endpoint TYPE=URL)\n",
    );
    const none = (await (await fetch(`${running.url}/_emulator/health`)).json()) as { storage: unknown };
    expect(none.storage).toEqual({ endpoints: { aws: null, digitalocean: null, azure: null }, sftp_hosts: [], uploads_in_flight: 0 });
    await running.stop('SIGTERM');

    running = await startCli(['--storage-endpoint', 'aws=http://127.0.0.1:9000/', '--storage-endpoint', 'sftp=files.example.test']);
    expect(running.stdout()).toContain(
      "  storage uploads: aws=http://127.0.0.1:9000, sftp=this machine's loopback and files.example.test; digitalocean, azure not sent anywhere (--storage-endpoint TYPE=URL)\n",
    );
    const some = (await (await fetch(`${running.url}/_emulator/health`)).json()) as { storage: unknown };
    expect(some.storage).toEqual({
      endpoints: { aws: 'http://127.0.0.1:9000', digitalocean: null, azure: null },
      sftp_hosts: ['files.example.test'],
      uploads_in_flight: 0,
    });
    await running.stop('SIGTERM');

    // An endpoint with credentials in its URL is refused before anything listens, and the refusal does not quote them.
    const refused = runCli(['--port', '0', '--storage-endpoint', 'aws=http://AKIAZQ:ZQsecret@127.0.0.1:9000']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      'meetings-emulator: --storage-endpoint aws= must not carry credentials (user:password@ in the URL): it would be shown on the start line, in health and in the request journal; the storage_config signs every upload with its own credentials\n',
    );

    running = await startCli([], {
      EMULATOR_STORAGE_ENDPOINTS: 'aws=http://minio:9000,digitalocean=http://minio:9001,azure=http://azurite:10000/devstoreaccount1,sftp=*',
    });
    expect(running.stdout()).toContain(
      '  storage uploads: aws=http://minio:9000, digitalocean=http://minio:9001, azure=http://azurite:10000/devstoreaccount1, sftp=any host\n',
    );
    await running.stop('SIGTERM');
    running = undefined;
  });

  it('logs JSON lines to a pipe, and readable lines with --log-format pretty (the format a terminal gets)', async () => {
    running = await startCli(['--clock', 'manual', '--seed', 'cli-log']);
    expect((await fetch(`${running.url}/_emulator/health`)).status).toBe(200);
    await running.stop('SIGTERM');
    const json = running
      .stderr()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(json.find((l) => l.msg === 'request')).toMatchObject({ level: 30, method: 'GET', path: '/_emulator/health', status: 200 });

    running = await startCli(['--clock', 'manual', '--seed', 'cli-log'], { EMULATOR_LOG_FORMAT: 'pretty' });
    expect((await fetch(`${running.url}/_emulator/health`)).status).toBe(200);
    await running.stop('SIGTERM');
    const lines = running.stderr().trim().split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}request reqId=req_\d+ method=GET path=\/_emulator\/health status=200 ms=\d+ orgId=null$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}shutting down signal=SIGTERM$/));
    running = undefined;
  });
});
