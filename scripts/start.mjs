// `npm start`: bundles the command line when src/ changed since the last bundle (a fresh clone
// bundles once), then runs it in this very process. Importing rather than spawning a child
// keeps one process, so the signal that stops `npm start` stops the emulator; the start script
// runs this file with `exec`, so that no shell stands between npm and node either.
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { BUNDLE, ensureBundle } from './build.mjs';

const startedAt = performance.now();
if (await ensureBundle()) process.stderr.write(`meetings-emulator: bundled the changes of src/ in ${Math.round(performance.now() - startedAt)} ms\n`);
await import(BUNDLE);
