// Once before a test run (vitest's global setup), and again before each rerun of watch mode: the
// bundles of dist/bin and the dashboard's build in dist/ui made up to date with src/
// (scripts/build.mjs --if-stale, a check of the sources' hash when nothing changed). The
// command-line tests run the bundled command line, the dashboard test the dashboard's build; the
// emulators the other tests start in process run their media plane's process from its bundle, named
// to them in PLANE_BUNDLE_VARIABLE, instead of from the sources through tsx (a quarter of the CPU a
// start: the bundle holds werift, which tsx loads module by module).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { PLANE_BUNDLE_VARIABLE } from '../../src/realtime/media/process-engine.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function bundle(): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`cannot bundle the command line, the media plane and the dashboard:\n${r.stdout}\n${r.stderr}`);
}

export default function setup(project: TestProject): void {
  // Each project inherits this setup from the root configuration, and vitest runs the root's too:
  // the root's alone does the work (the variable reaches every project's workers, forked after it).
  if (!project.isRootProject()) return;
  bundle();
  process.env[PLANE_BUNDLE_VARIABLE] = path.join(ROOT, 'dist', 'bin', 'media-plane.mjs');
  project.onTestsRerun(bundle);
}
