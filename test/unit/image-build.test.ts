// How the repository's image is built (Dockerfile): its build stage installs the production
// dependencies and the build's own tools alone (scripts/image-build-deps.mjs), at the lockfile's
// versions, and its system packages come first, in the same layer as the package's own image
// (container/Dockerfile), so that a machine that builds both installs ffmpeg once.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as Manifest;

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'image-build-deps-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the script as the Dockerfile does, on a copy of `input`: its exit status, what it wrote and what it said. */
function imageBuildManifest(input: unknown): { status: number | null; manifest: Manifest; stderr: string } {
  const file = path.join(tmp, 'package.json');
  writeFileSync(file, JSON.stringify(input));
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'image-build-deps.mjs'), file], { encoding: 'utf8' });
  return { status: run.status, manifest: JSON.parse(readFileSync(file, 'utf8')) as Manifest, stderr: run.stderr };
}

/** The packages a folder's sources import by name (`preact/hooks` is preact's, `@scope/name/x` is @scope/name's). */
function importedPackages(dir: string): Set<string> {
  const names = new Set<string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        for (const [, spec] of readFileSync(full, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^'.][^']*)'/g)) {
          if (spec!.startsWith('node:')) continue;
          const parts = spec!.split('/');
          names.add(spec!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
        }
    }
  };
  walk(path.join(ROOT, dir));
  return names;
}

describe("the repository's image build", () => {
  const built = imageBuildManifest(manifest);

  it('installs the production dependencies and, of the development ones, only the build tools, without the optional peer', () => {
    expect(built.status).toBe(0);
    expect(built.manifest.dependencies).toEqual(manifest.dependencies);
    expect(Object.keys(built.manifest.devDependencies).sort()).toEqual(['esbuild', 'hls.js', 'htm', 'preact']);
    for (const [tool, version] of Object.entries(built.manifest.devDependencies)) expect(version).toBe(manifest.devDependencies[tool]);
    expect(manifest.peerDependencies).toHaveProperty('testcontainers');
    expect(built.manifest).not.toHaveProperty('peerDependencies');
    expect(built.manifest).not.toHaveProperty('peerDependenciesMeta');
    expect(built.manifest.scripts).toEqual(manifest.scripts);
  });

  it("keeps every package the dashboard's sources import", () => {
    const available = new Set([...Object.keys(built.manifest.dependencies), ...Object.keys(built.manifest.devDependencies)]);
    const dashboard = importedPackages('src/ui/app');
    expect(dashboard.size).toBeGreaterThan(0);
    expect([...dashboard].filter((name) => !available.has(name))).toEqual([]);
  });

  it('refuses a manifest without one of the build tools, and leaves it as it was', () => {
    const { esbuild: _gone, ...rest } = manifest.devDependencies;
    const refused = imageBuildManifest({ ...manifest, devDependencies: rest });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/esbuild not among the development dependencies/);
    expect(refused.manifest.devDependencies).toEqual(rest);
  });

  it('begins both images with the same system-package layer: the same base and the same first instruction', () => {
    const instructions = (file: string) =>
      read(file)
        .replace(/\\\n/g, ' ')
        .split('\n')
        .filter((line) => /^(FROM|RUN|COPY|ENV|WORKDIR|USER)\b/.test(line));
    const repository = instructions('Dockerfile');
    const pkg = instructions('container/Dockerfile');
    expect(repository.slice(0, 2)).toEqual(['FROM node:20-bookworm-slim AS runtime', pkg[1]]);
    expect(pkg[0]).toBe('FROM node:20-bookworm-slim');
    expect(pkg[1]).toMatch(/^RUN apt-get update && .* ffmpeg/);
    // The image that runs is built on that stage.
    expect(repository.filter((line) => line.startsWith('FROM')).at(-1)).toBe('FROM runtime');
  });
});
