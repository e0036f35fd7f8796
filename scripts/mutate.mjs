// npm run mutate [-- StrykerJS options]: one StrykerJS run (stryker.config.mjs), how long it took
// noted in reports/mutation/runs.json, then bench/MUTATION.md written from the report
// (scripts/mutation-report.mjs). Durations are not in Stryker's own report, hence this wrapper.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsFile = join(root, 'reports/mutation/runs.json');
const args = process.argv.slice(2);

const started = new Date();
const stryker = spawnSync(join(root, 'node_modules/.bin/stryker'), ['run', ...args], { cwd: root, stdio: 'inherit' });
const seconds = Math.round((Date.now() - started.getTime()) / 1000);

const runs = existsSync(runsFile) ? JSON.parse(readFileSync(runsFile, 'utf8')) : [];
runs.push({
  started: started.toISOString(),
  command: ['npm run mutate', ...(args.length ? ['--', ...args] : [])].join(' '),
  seconds,
  exitCode: stryker.status,
});
mkdirSync(dirname(runsFile), { recursive: true });
writeFileSync(runsFile, `${JSON.stringify(runs, null, 2)}\n`);
process.stdout.write(`mutate: ${seconds} s\n`);

if (existsSync(join(root, 'reports/mutation/mutation.json'))) {
  const report = spawnSync(process.execPath, [join(root, 'scripts/mutation-report.mjs')], { cwd: root, stdio: 'inherit' });
  if (report.status !== 0) process.exit(report.status ?? 1);
}
process.exit(stryker.status ?? 1);
