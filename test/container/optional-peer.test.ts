// testcontainers is an optional peer dependency: a user of the main entry point may not have it,
// so importing 'meetings-emulator' must never load it; only 'meetings-emulator/testcontainers' does.
// Checked in a fresh process, whose module cache holds exactly what one import pulled in.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Imports one source entry point and says whether a file of the testcontainers package was loaded. */
function loadsTestcontainers(entry: string): boolean {
  const script = `
    import { createRequire } from 'node:module';
    await import(${JSON.stringify(path.join(ROOT, entry))});
    const cache = createRequire(${JSON.stringify(path.join(ROOT, 'package.json'))}).cache;
    console.log(JSON.stringify(Object.keys(cache).some((f) => f.includes('/node_modules/testcontainers/'))));
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout.trim()) as boolean;
}

describe('testcontainers stays optional', () => {
  it('the main entry point does not load it', () => {
    expect(loadsTestcontainers('src/index.ts')).toBe(false);
  });

  it('the testcontainers entry point does', () => {
    expect(loadsTestcontainers('src/testcontainers.ts')).toBe(true);
  });
});
