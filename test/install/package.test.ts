// The package as a project gets it: `npm pack` (which runs `prepare`, the build, as a git-URL
// install does) makes a tarball with the library, its declarations, the bundled command line,
// the fixtures and the docs; the tarball's bin and entry run; and a strict TypeScript project
// compiles against its types with nothing but the package's own dependencies and @types/node
// installed (express ships no types, and @types/express is only our dev dependency).
//
// Offline: the tarball is unpacked, not installed, and its dependencies are links to ours.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

// Outside the repository, so that nothing resolves from its node_modules by walking up.
let tmp: string;
let pkg: string;
let packed: string[];

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'meetings-emulator-pack-'));
  // --ignore-scripts=false: `prepare` must run whatever the machine's npm config says, as it does
  // for a git-URL install.
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts=false', '--pack-destination', tmp], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 170_000,
  });
  const [info] = JSON.parse(out.slice(out.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
  packed = info.files.map((f) => f.path);
  execFileSync('tar', ['-xzf', path.join(tmp, info.filename), '-C', tmp]);
  pkg = path.join(tmp, 'package');
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The package's dependencies, as an install would put them next to it (links to ours). */
function linkDependencies(): void {
  mkdirSync(path.join(pkg, 'node_modules'), { recursive: true });
  for (const dep of Object.keys(manifest.dependencies)) {
    // A scoped package (@peculiar/x509) sits in its scope's folder.
    mkdirSync(path.dirname(path.join(pkg, 'node_modules', dep)), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(pkg, 'node_modules', dep), 'dir');
  }
}

describe('the packed package', () => {
  it('holds the build (library, declarations, bundled command line), the fixtures and the docs, not the sources', () => {
    for (const file of [
      'package.json',
      'README.md',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/bin/meetings-emulator.js',
      'dist/ui/index.html',
      'dist/ui/main.js',
      'fixtures/default.json',
      'docs/running.md',
    ])
      expect(packed).toContain(file);
    expect(packed.filter((f) => /^(src|test|bench|scripts)\//.test(f))).toEqual([]);
  });

  it('its bin runs on its own: the bundle needs no node_modules', () => {
    const r = spawnSync(process.execPath, [path.join(pkg, 'dist', 'bin', 'meetings-emulator.js'), '--version'], { cwd: tmp, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('0.1.0\n');
  });

  it('its entry imports and starts an emulator', () => {
    linkDependencies();
    const script = `import { startEmulator } from ${JSON.stringify(path.join(pkg, 'dist', 'src', 'index.js'))};
const emu = await startEmulator({ seed: 'pack' });
const res = await fetch(emu.url + '/_emulator/health');
console.log(res.status, (await res.json()).version);
await emu.close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: tmp, encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('200 0.1.0\n');
  });

  it('a strict TypeScript project (skipLibCheck off) compiles against its types without express types, and createApp is typed', () => {
    const consumer = path.join(tmp, 'consumer');
    mkdirSync(path.join(consumer, 'node_modules', '@types'), { recursive: true });
    symlinkSync(pkg, path.join(consumer, 'node_modules', 'meetings-emulator'), 'dir');
    symlinkSync(path.join(ROOT, 'node_modules', '@types', 'node'), path.join(consumer, 'node_modules', '@types', 'node'), 'dir');
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(
      path.join(consumer, 'consumer.ts'),
      `import { createServer } from 'node:http';
import { buildDeps, createApp, defaultConfig, startEmulator, type RunningEmulator } from 'meetings-emulator';

const handler = createApp(buildDeps(defaultConfig({ clock: 'manual', seed: 'consumer' })));
createServer(handler);
// Fails to compile if createApp's type were any: a handler is no number.
// @ts-expect-error
export const notANumber: number = handler;

const emu: RunningEmulator = await startEmulator({ seed: 'consumer' });
export const url: string = emu.url;
await emu.close();
`,
    );
    if (!readFileSync(path.join(pkg, 'package.json'), 'utf8').includes('"dependencies"')) throw new Error('the packed package.json lost its dependencies');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], {
      cwd: consumer,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);
});
