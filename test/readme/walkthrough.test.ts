// The README's walk-through, run as written (bash + curl) against the real CLI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../helpers/spawn-emulator.js';
import { probeDuration, withFfmpeg } from '../helpers/media-probe.js';

let running: RunningCli | undefined;
let dir: string | undefined;
afterEach(async () => {
  // SIGTERM, as Ctrl-C would: the emulator removes its recordings' and livestreams' folders as it
  // stops (a SIGKILL left them in the system's temporary folder).
  await running?.stop();
  running = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function walkthroughScript(): string {
  const readme = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Walk-through'));
  const m = /```bash\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error('README has no bash block under "## Walk-through"');
  return m[1]!;
}

it('the README walk-through works as written against the CLI', async () => {
  running = await startCli(['--log-level', 'warn']);
  dir = mkdtempSync(path.join(tmpdir(), 'walkthrough-'));
  const r = spawnSync('bash', ['-e', '-c', walkthroughScript()], { cwd: dir, env: { ...process.env, BASE: running.url }, encoding: 'utf8', timeout: 60_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^meeting [0-9a-f-]{36}$/);
  expect(lines[1]).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(lines).toContain('RECORDING');
  expect(lines).toContain('UPLOADING');
  if (withFfmpeg) {
    // The recording holds the meeting: from the recorder's join (3 s in) to the end of the minute
    // advanced, and the few real seconds around it.
    expect(lines.find((l) => l.startsWith('downloaded '))).toMatch(/^downloaded \d+ bytes of video\/mp4$/);
    const seconds = probeDuration(path.join(dir, 'recording.mp4'));
    expect(seconds).toBeGreaterThanOrEqual(57);
    expect(seconds).toBeLessThan(70);
  } else {
    // Without ffmpeg every recording is the bundled sample.
    expect(lines).toContain('downloaded 29944 bytes of video/mp4');
  }
  expect(r.stdout).toMatch(/"status":"LIVE"/);
  expect(lines.at(-1)).toBe('Livestream stopped successfully');
});
