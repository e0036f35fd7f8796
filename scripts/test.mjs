// `npm test`: the whole suite (vitest) and the static checks (scripts/checks.mjs) at the same time.
// The checks run at the lowest CPU priority, so they take the cores only while the tests leave them
// idle (the tests wait on browsers, ffmpeg and real time for much of a run) and never slow a test
// that is waiting on a page. Their output is printed after the tests' own. The exit code is the
// tests' when they failed, else the checks'. Arguments go to vitest (`npm test -- test/unit`).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import process from 'node:process';

function exited(child) {
  return new Promise((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`${err.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const checks = spawn(process.execPath, ['scripts/checks.mjs'], { stdio: ['ignore', 'pipe', 'pipe'] });
// Set before the checks start their own processes, which inherit it.
try {
  setPriority(checks.pid, constants.priority.PRIORITY_LOWEST);
} catch {
  // A system that refuses it runs them at the tests' priority: slower, the same result.
}
const output = [];
checks.stdout.on('data', (chunk) => output.push(chunk));
checks.stderr.on('data', (chunk) => output.push(chunk));
const checked = exited(checks);

const tests = await exited(spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' }));
const checksCode = await checked;
process.stdout.write(`\nstatic checks (run beside the tests):\n${Buffer.concat(output).toString()}`);
process.exitCode = tests !== 0 ? tests : checksCode;
