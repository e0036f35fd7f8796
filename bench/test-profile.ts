// Where the test suite's time goes, from vitest's JSON report (the one `npm test` writes to
// .test-results/vitest.json): the slowest files, what each spends before its first test (import and
// beforeAll: starting emulators, browsers, media planes, containers) and in its tests, and the
// totals per folder. The wall time of a run is not the sum of its files when files run side by side.
//
//   npx tsx bench/test-profile.ts [--report .test-results/vitest.json] [--top 20] [--write bench/TEST-SUITE.md --title "…"]
//
// With --write the table is appended to the file under the given title, so a before and an after
// sit one under the other.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface Report {
  startTime: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; startTime: number; endTime: number; assertionResults: { duration?: number | null; status: string }[] }[];
}

const { values } = parseArgs({
  options: {
    report: { type: 'string', default: '.test-results/vitest.json' },
    top: { type: 'string', default: '20' },
    write: { type: 'string' },
    title: { type: 'string', default: 'A run' },
  },
});

const report = JSON.parse(readFileSync(values.report, 'utf8')) as Report;
const root = process.cwd() + path.sep;
const seconds = (ms: number) => (ms / 1000).toFixed(1);

const files = report.testResults.map((f) => {
  const inTests = f.assertionResults.reduce((sum, t) => sum + (t.duration ?? 0), 0);
  const wall = f.endTime - f.startTime;
  return {
    name: f.name.startsWith(root) ? f.name.slice(root.length) : f.name,
    tests: f.assertionResults.length,
    wall,
    inTests,
    outside: Math.max(0, wall - inTests),
  };
});
files.sort((a, b) => b.wall - a.wall);

const first = Math.min(...report.testResults.map((f) => f.startTime));
const last = Math.max(...report.testResults.map((f) => f.endTime));
const sum = files.reduce((s, f) => s + f.wall, 0);

const lines: string[] = [];
lines.push(`### ${values.title}`, '');
lines.push(
  `${report.testResults.length} files, ${report.numPassedTests} passed, ${report.numFailedTests} failed; ` +
    `from the first file's start to the last one's end ${seconds(last - first)} s; the files' own times add up to ${seconds(sum)} s.`,
  '',
);
lines.push('| file | tests | wall s | in tests s | before and between tests s |', '|---|---:|---:|---:|---:|');
for (const f of files.slice(0, Number(values.top))) {
  lines.push(`| ${f.name} | ${f.tests} | ${seconds(f.wall)} | ${seconds(f.inTests)} | ${seconds(f.outside)} |`);
}
lines.push('');

const folders = new Map<string, { files: number; wall: number }>();
for (const f of files) {
  const parts = f.name.split('/');
  const folder = parts.slice(0, Math.min(parts.length - 1, 3)).join('/');
  const entry = folders.get(folder) ?? { files: 0, wall: 0 };
  entry.files++;
  entry.wall += f.wall;
  folders.set(folder, entry);
}
lines.push('| folder | files | wall s (sum) |', '|---|---:|---:|');
for (const [folder, e] of [...folders].sort((a, b) => b[1].wall - a[1].wall)) lines.push(`| ${folder} | ${e.files} | ${seconds(e.wall)} |`);
lines.push('');

const text = lines.join('\n');
console.log(text);
if (values.write) appendFileSync(values.write, text + '\n');
