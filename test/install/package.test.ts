// The package as a project gets it: `npm pack` (which runs `prepare`, the build, as a git-URL
// install does) makes a tarball with the library, its declarations, the bundled command line,
// the fixtures, the docs and the recipe of its image; the tarball's bin and entry run; a strict
// TypeScript project compiles against its types with nothing but the package's own dependencies
// and @types/node installed (express ships no types, and @types/express is only our dev
// dependency); and, where a Docker engine API runs, a project that installed the tarball starts
// the emulator's container through `meetings-emulator/testcontainers`, with no checkout around.
//
// Offline on the host: the tarball is unpacked, not installed, and its dependencies are links to
// ours. (Building the image installs the production dependencies inside it, from the registry.)
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineMissing, inCi } from '../helpers/docker-engine.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

// Outside the repository, so that nothing resolves from its node_modules by walking up.
let tmp: string;
let pkg: string;
let tarball: string;
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
  tarball = path.join(tmp, info.filename);
  execFileSync('tar', ['-xzf', tarball, '-C', tmp]);
  pkg = path.join(tmp, 'package');
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** What werift's ES module build holds once the package's patch is applied (its SRTP keystream), and not before. */
const PATCHED = 'AesCmKeystream';

/** Links to our installed `deps` in `nodeModules`, where an install would put them. */
function linkPackages(nodeModules: string, deps: readonly string[]): void {
  for (const dep of deps) {
    const target = path.join(nodeModules, dep);
    // A scoped package (@scope/name) sits in its scope's folder.
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', dep), target, 'dir');
  }
}

/** The package's dependencies, as an install would put them next to it (links to ours). */
function linkDependencies(): void {
  linkPackages(path.join(pkg, 'node_modules'), Object.keys(manifest.dependencies));
}

describe('the packed package', () => {
  it("holds the build (library, declarations, bundled command line), the fixtures, the SDK's .proto files and the docs, not the sources", () => {
    for (const file of [
      'package.json',
      'README.md',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/bin/meetings-emulator.js',
      // The media plane's own process, started by the command line with a room's first transport.
      'dist/bin/media-plane.mjs',
      'dist/ui/index.html',
      'dist/ui/main.js',
      'fixtures/default.json',
      'proto/sdk/message.v1.proto',
      'docs/running.md',
      'container/Dockerfile',
      'container/warm-up.mjs',
      'dist/container/package.json',
      'dist/container/package-lock.json',
      // Its patch to werift (made with patch-package) and the script that applies it, at install and in its image.
      'patches/werift+0.24.4.patch',
      'patches/apply-patches.mjs',
    ])
      expect(packed).toContain(file);
    expect(packed.filter((f) => /^(src|test|bench|scripts)\//.test(f))).toEqual([]);
    // The repository's Dockerfile builds from the sources, which the package does not ship.
    expect(packed).not.toContain('Dockerfile');
  });

  it("its image installs from the package's manifest and lockfile, without development dependencies or scripts", () => {
    type Lock = { packages: Record<string, { dev?: boolean; devDependencies?: unknown; dependencies?: Record<string, string> }> };
    const read = <T>(file: string) => JSON.parse(readFileSync(path.join(pkg, 'dist', 'container', file), 'utf8')) as T;
    const imageManifest = read<Record<string, unknown>>('package.json');
    const lock = read<Lock>('package-lock.json');
    const ours = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
    expect(imageManifest).not.toHaveProperty('devDependencies');
    expect(imageManifest).not.toHaveProperty('scripts');
    expect(imageManifest.dependencies).toEqual(manifest.dependencies);
    expect(lock.packages['']).not.toHaveProperty('devDependencies');
    // Every production package of our lockfile, at the same version and integrity, and nothing else.
    const production = Object.fromEntries(Object.entries(ours.packages).filter(([where, entry]) => where !== '' && !entry.dev));
    expect(Object.fromEntries(Object.entries(lock.packages).filter(([where]) => where !== ''))).toEqual(production);
    expect(Object.keys(production)).toContain('node_modules/express');
    expect(Object.keys(lock.packages)).not.toContain('node_modules/typescript');
  });

  it("its patch to werift applies where an install puts werift: next to the package, in the project's node_modules", () => {
    // Copies, not links: the patch is taken out of and put back into this werift, never ours.
    const project = path.join(tmp, 'hoisted');
    const modules = path.join(project, 'node_modules');
    mkdirSync(modules, { recursive: true });
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'hoisted', private: true }));
    cpSync(pkg, path.join(modules, 'meetings-emulator'), { recursive: true, filter: (from) => !from.startsWith(path.join(pkg, 'node_modules')) });
    cpSync(path.join(ROOT, 'node_modules', 'werift'), path.join(modules, 'werift'), { recursive: true });
    linkPackages(modules, ['patch-package']);
    const cipher = path.join(modules, 'werift', 'lib', 'index.mjs');
    const run = (args: string[], cwd: string) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 60_000 });
    const reverse = run(
      [path.join(ROOT, 'node_modules', 'patch-package', 'index.js'), '--reverse', '--patch-dir', 'node_modules/meetings-emulator/patches'],
      project,
    );
    expect(reverse.status, reverse.stdout + reverse.stderr).toBe(0);
    expect(readFileSync(cipher, 'utf8')).not.toContain(PATCHED);
    // As npm runs `postinstall`: in the package's folder.
    const applied = run(['patches/apply-patches.mjs'], path.join(modules, 'meetings-emulator'));
    expect(applied.status, applied.stdout + applied.stderr).toBe(0);
    expect(readFileSync(cipher, 'utf8')).toContain(PATCHED);
    expect(readFileSync(cipher, 'utf8')).toBe(readFileSync(path.join(ROOT, 'node_modules', 'werift', 'lib', 'index.mjs'), 'utf8'));
  });

  it("its media plane's bundle holds werift, as the package patches it, and loads no package from node_modules", () => {
    const plane = readFileSync(path.join(pkg, 'dist', 'bin', 'media-plane.mjs'), 'utf8');
    expect(plane).toContain(PATCHED);
    // What the bundle imports or requires, as esbuild writes it: from"x", import("x"), __require("x").
    const loaded = [...plane.matchAll(/(?:\bfrom|\bimport\(|require\()"([^"]+)"/g)].map((m) => m[1]!);
    expect(loaded).toContain('node:dgram');
    expect(loaded.filter((name) => !isBuiltin(name))).toEqual([]);
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
          // A Node project's: no DOM. The package's types then may lean on nothing but Node's and the
          // language's own (and the check skips the DOM's declarations: about a fifth of its CPU).
          lib: ['ES2022'],
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

// What a project that installed the package and its optional peer testcontainers runs: the module
// builds the package's own image (container/Dockerfile) and starts it. In a fresh process whose
// working directory is that project, so 'meetings-emulator/testcontainers' resolves to the
// installed package (in the project's node_modules, with no Dockerfile and no sources around it).
const CONSUMER_SCRIPT = `
import { DEFAULT_BUILT_IMAGE, MeetingsEmulatorContainer } from 'meetings-emulator/testcontainers';
const emu = await new MeetingsEmulatorContainer().withSeed('install').start();
const out = { image: DEFAULT_BUILT_IMAGE };
try {
  const health = await fetch(emu.url + '/_emulator/health');
  out.health = { status: health.status, version: (await health.json()).version };
  const headers = { authorization: emu.authHeader, 'content-type': 'application/json' };
  const created = await fetch(emu.url + '/v2/meetings', { method: 'POST', headers, body: JSON.stringify({ title: 'From the package' }) });
  const meeting = (await created.json()).data;
  const read = await fetch(emu.url + '/v2/meetings/' + meeting.id, { headers });
  out.meeting = { created: created.status, read: read.status, title: (await read.json()).data.title };
  // The clock is manual and, with a seed, starts at 2026-01-01T00:00:00Z: it moves only by advance().
  await emu.advance(1500);
  out.clock = (await (await fetch(emu.url + '/_emulator/health')).json()).clock.now;
  // What the image holds: the warmed code cache, the docs pages, and no compiler, sources or dev dependency.
  const probe = await emu.exec(['node', '-e', "const fs = require('fs'); console.log(JSON.stringify(['dist/bin/emulator.cjs.cache', 'docs/running.md', 'node_modules/express', 'node_modules/typescript', 'node_modules/vitest', 'src', 'dist/src', 'tsconfig.json'].filter((f) => fs.existsSync(f))))"]);
  out.files = JSON.parse(probe.stdout.trim());
  // The package's patch to werift, applied in the image's build (its install runs no scripts).
  const werift = await emu.exec(['node', '-e', "console.log(require('fs').readFileSync('node_modules/werift/lib/index.mjs', 'utf8').includes('${PATCHED}'))"]);
  out.weriftPatched = werift.stdout.trim() === 'true';
  out.user = (await emu.exec(['id', '-u'])).stdout.trim();
} finally {
  await emu.stop();
}
console.log(JSON.stringify(out));
`;

// A cold build installs the production dependencies inside the image (under a minute here); a
// warm one takes seconds. The timeout only guards against a hang.
const CONTAINER_TIMEOUT_MS = 600_000;

if (engineMissing && inCi) {
  it('the installed package in a container needs a Docker engine API under CI', () => {
    throw new Error(engineMissing);
  });
} else if (engineMissing) {
  // Shown in the run's output, not only in a verbose report, so a skipped container test is noticed.
  console.warn(`test/install/package.test.ts: the container of the installed package skipped: ${engineMissing}`);
  it.skip(`the installed package in a container (skipped: ${engineMissing})`, () => {});
} else {
  describe('the installed package in a container', () => {
    it(
      "a project that installed the tarball starts the emulator's container through meetings-emulator/testcontainers, built from what the package ships",
      async () => {
        const project = path.join(tmp, 'project');
        const installed = path.join(project, 'node_modules', 'meetings-emulator');
        mkdirSync(installed, { recursive: true });
        writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'project', type: 'module', private: true }));
        execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
        // Hoisted next to the package, as npm installs them: its dependencies and the optional peer.
        linkPackages(path.join(project, 'node_modules'), [...Object.keys(manifest.dependencies), 'testcontainers']);

        const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CONSUMER_SCRIPT], {
          cwd: project,
          encoding: 'utf8',
          timeout: CONTAINER_TIMEOUT_MS - 10_000,
        });
        expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
          image: 'meetings-emulator:testcontainers-package',
          health: { status: 200, version: '0.1.0' },
          meeting: { created: 201, read: 200, title: 'From the package' },
          clock: '2026-01-01T00:00:01.500Z',
          files: ['dist/bin/emulator.cjs.cache', 'docs/running.md', 'node_modules/express'],
          weriftPatched: true,
          user: '1000',
        });
      },
      CONTAINER_TIMEOUT_MS,
    );
  });
}
