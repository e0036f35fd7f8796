// The static checks `npm test` runs before the tests: eslint, prettier's check, and the type checks
// of the server and of the dashboard. Each is a single-threaded process, so they run side by side
// (one per core), each one's output printed whole when it ends; the exit code is the first failure's,
// or 0. `node scripts/checks.mjs` runs them all; names run some (`node scripts/checks.mjs eslint`).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import process from 'node:process';

const CHECKS = {
  eslint: ['npx', ['eslint', '.']],
  prettier: ['npm', ['run', '-s', 'format:check']],
  tsc: ['npx', ['tsc', '--noEmit', '-p', '.']],
  'tsc (dashboard)': ['npx', ['tsc', '--noEmit', '-p', 'src/ui/app']],
};

const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(CHECKS);
for (const name of names) if (!(name in CHECKS)) throw new Error(`no check named ${name}; the checks: ${Object.keys(CHECKS).join(', ')}`);

function run(name) {
  const [command, args] = CHECKS[name];
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const text = Buffer.concat(output).toString().trimEnd();
      process.stdout.write(`${code === 0 ? 'ok    ' : 'FAILED'} ${name} (${seconds.toFixed(1)} s)${text ? `\n${text}` : ''}\n`);
      resolve(code ?? 1);
    });
  });
}

// A pool as wide as the cores: more would only take turns on them.
const queue = [...names];
const codes = [];
await Promise.all(
  Array.from({ length: Math.min(queue.length, Math.max(1, availableParallelism())) }, async () => {
    while (queue.length > 0) codes.push(await run(queue.shift()));
  }),
);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
