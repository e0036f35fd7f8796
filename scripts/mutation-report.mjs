// bench/MUTATION.md from the results kept in bench/mutation/ (scripts/mutation-store.mjs: each
// file's latest result, written by scripts/mutate.mjs after each run, so folder-by-folder runs add
// up): the mutation score per folder, the counts per status, the runs that produced it and every
// surviving mutant with the reason it is equivalent, or a note that it still wants a test. Notes on
// particular mutants live in scripts/mutation-notes.mjs.
//   node scripts/mutation-report.mjs [out.md]
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { NOTES, STATUS } from './mutation-notes.mjs';
import { mutatedBy, testFilesOf } from './mutation-runs.mjs';
import { mutantKey, readStore, relativeTo, STORE_DIR } from './mutation-store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = process.argv[2] ?? join(root, 'bench/MUTATION.md');

/** The folders with a goal of their own; every other file counts under "others". */
const FOLDERS = ['src/core', 'src/domain', 'src/http', 'src/webhooks'];
const GOAL = 85;
/** Statuses in the order of the table; Stryker's score is (killed + timeout) / (those + survived + no coverage). */
const STATUSES = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'RuntimeError', 'Ignored'];

const { runs, files } = readStore(root);

const folderOf = (file) => FOLDERS.find((f) => file.startsWith(`${f}/`)) ?? 'others';
const relative = relativeTo(root);

const squash = (text, max = 70) => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};
const code = (text) => `\`${squash(text).replaceAll('`', "'").replaceAll('|', '\\|')}\``;

// A mutant's note: the first with its name (the notes test makes sure there is only one).
const notesByKey = new Map();
for (const n of NOTES) {
  const key = mutantKey(n.file, n.mutator, n.original, n.replacement);
  if (!notesByKey.has(key)) notesByKey.set(key, n);
}
const noteFor = (m) => notesByKey.get(mutantKey(m.file, m.mutatorName, m.original, m.replacement));

const mutants = [];
for (const [file, result] of Object.entries(files)) for (const m of result.mutants) mutants.push({ ...m, file });

// The files `npm run mutate` covers (stryker.config.mjs): every .ts file of src/ but the dashboard and declarations.
const sourceFiles = readdirSync(join(root, 'src'), { recursive: true })
  .map((f) => `src/${String(f).replaceAll('\\', '/')}`)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('src/ui/app/'));
const filesIn = (key) => sourceFiles.filter((f) => key === 'all' || folderOf(f) === key).length;
const mutatedIn = (key) => new Set(mutants.filter((m) => key === 'all' || folderOf(m.file) === key).map((m) => m.file)).size;
// Which run measured each file: the last successful run whose --mutate names it and whose results
// are kept. A run limited by --testFiles tried each mutant against those tests only, so its score
// is a lower bound of what the whole suite kills.
const runOf = (file) => {
  for (let i = runs.length - 1; i >= 0; i--) if (runs[i].exitCode === 0 && runs[i].kept !== false && mutatedBy(runs[i])(file)) return i;
  return undefined;
};
// Files a run named in which Stryker found nothing to mutate (types, `as const` tables): measured, with no mutant.
const withMutants = new Set(mutants.map((m) => m.file));
const withoutMutants = sourceFiles.filter((f) => !withMutants.has(f) && runOf(f) !== undefined);
const withoutMutantsIn = (key) => withoutMutants.filter((f) => key === 'all' || folderOf(f) === key).length;
const measuredIn = (key) => {
  const none = withoutMutantsIn(key);
  return `${mutatedIn(key) + none} of ${filesIn(key)}${none ? ` (${none} without a mutant)` : ''}`;
};

const counts = new Map();
const count = (key, status) => {
  const c = counts.get(key) ?? Object.fromEntries(STATUSES.map((s) => [s, 0]));
  c[status] = (c[status] ?? 0) + 1;
  counts.set(key, c);
};
for (const m of mutants) {
  count(folderOf(m.file), m.status);
  count('all', m.status);
}
const score = (c) => {
  const detected = c.Killed + c.Timeout;
  const valid = detected + c.Survived + c.NoCoverage;
  return valid === 0 ? undefined : (100 * detected) / valid;
};
const pct = (s) => (s === undefined ? '–' : `${s.toFixed(1)} %`);

const out = [];
out.push('# Mutation testing');
out.push('');
out.push(`Written by \`scripts/mutation-report.mjs\` from the results kept in \`${STORE_DIR}/\` (each file's latest result);`);
out.push('`npm run mutate` adds each run to them. How to run it:');
out.push('CONTRIBUTING.md, "Mutation testing". The score is');
out.push('(killed + timeout) / (killed + timeout + survived + no coverage); compile errors (mutants the TypeScript checker');
out.push(`rejects) do not count, nor do static mutants (code that runs when a module loads: stryker.config.mjs ignores them,
as each would need the whole suite run again). Goal: ${GOAL} % in each of ${FOLDERS.map((f) => `\`${f}\``).join(', ')}.`);
out.push('');
if (STATUS.length) out.push(...STATUS, '');
out.push('## Score per folder');
out.push('');
out.push('| Folder | Files mutated | Score | Killed | Timeout | Survived | No coverage | Compile error | Runtime error | Ignored (static) |');
out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const key of [...FOLDERS, 'others', 'all']) {
  const c = counts.get(key);
  const name = key === 'all' ? '**all mutated so far**' : key === 'others' ? 'others (top level, store, simulator, state, …)' : `\`${key}\``;
  if (!c) {
    out.push(`| ${name} | 0 of ${filesIn(key)} | no kept result yet | | | | | | | |`);
    continue;
  }
  const s = score(c);
  const mark = key !== 'others' && key !== 'all' && s !== undefined ? (s >= GOAL ? ' ✓' : ' ✗') : '';
  out.push(`| ${name} | ${measuredIn(key)} | ${pct(s)}${mark} | ${STATUSES.map((st) => c[st]).join(' | ')} |`);
}
out.push('');
out.push('## Runs');
out.push('');
if (runs.length === 0) {
  out.push(`No run recorded by \`npm run mutate\` (\`${STORE_DIR}/runs.json\`).`);
} else {
  out.push('Each run reuses the results of the runs before it (incremental mode) for code and tests that did not change.');
  if (runs.some((r) => r.kept === false)) {
    out.push('Runs marked † were made before their results were kept in the repository: their results are lost, and the files');
    out.push('they measured count here once a later run measures them again.');
  }
  out.push('');
  out.push('| Run | Started (UTC) | Command | Duration | Exit |');
  out.push('|---:|---|---|---:|---:|');
  for (const [i, r] of runs.entries()) {
    const min = Math.floor(r.seconds / 60);
    out.push(
      `| ${i + 1}${r.kept === false ? ' †' : ''} | ${r.started.slice(0, 16).replace('T', ' ')} | \`${r.command.replaceAll('|', '\\|')}\` | ${min} min ${r.seconds % 60} s | ${r.exitCode} |`,
    );
  }
}
out.push('');

const lineRunsOf = new Map(Object.entries(files).map(([file, result]) => [file, result.lineRuns]));
const fileRuns = new Map([...Object.entries(files).map(([file, result]) => [file, result.run]), ...withoutMutants.map((file) => [file, runOf(file)])]);
if ([...fileRuns.values()].some((r) => r !== undefined)) {
  out.push('## Files and the run that measured them');
  out.push('');
  out.push('| File | Score | Mutants tested | Run | Tests it ran |');
  out.push('|---|---:|---:|---:|---|');
  for (const [file, run] of [...fileRuns].sort(([a], [b]) => a.localeCompare(b))) {
    const c = Object.fromEntries(STATUSES.map((st) => [st, 0]));
    for (const m of mutants) if (m.file === file) c[m.status] += 1;
    const command = run === undefined ? '' : (runs[run]?.command ?? '');
    const limited = testFilesOf({ command });
    const tests = limited ? limited.map((t) => `\`${t}\``).join(', ') : 'the whole suite';
    // Runs that retested some lines of the file since (`--mutate src/a.ts:10-20`).
    const lineRuns = lineRunsOf.get(file)?.map((r) => r + 1);
    const measuredBy = `${run === undefined ? '–' : run + 1}${lineRuns?.length ? ` (lines: ${lineRuns.join(', ')})` : ''}`;
    out.push(`| \`${file}\` | ${pct(score(c))} | ${c.Killed + c.Timeout + c.Survived + c.NoCoverage} | ${measuredBy} | ${tests} |`);
  }
  out.push('');
}

const survivors = mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage');
const equivalent = survivors.filter((m) => noteFor(m)?.equivalent);
const outOfReach = survivors.filter((m) => noteFor(m)?.outOfReach);
const open = survivors.filter((m) => !noteFor(m)?.equivalent && !noteFor(m)?.outOfReach);
const byPlace = (a, b) => a.file.localeCompare(b.file) || a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column;
const where = (m) => `\`${m.file}:${m.location.start.line}\``;
const what = (m) => `${m.mutatorName}: ${code(m.original)} → ${code(m.replacement ?? '')}`;

out.push('## Surviving mutants');
out.push('');
out.push(
  `${survivors.length} survive: ${equivalent.length} equivalent (no caller can tell them from the code), ${outOfReach.length} out of Stryker's reach (killed when applied by hand), ${open.length} without a test or a reason yet.`,
);
out.push('');
if (equivalent.length) {
  out.push('### Equivalent');
  out.push('');
  out.push('| Where | Mutant | Why no test can kill it |');
  out.push('|---|---|---|');
  for (const m of equivalent.sort(byPlace)) out.push(`| ${where(m)} | ${what(m)} | ${noteFor(m).equivalent} |`);
  out.push('');
}
if (outOfReach.length) {
  out.push("### Out of Stryker's reach");
  out.push('');
  out.push('Stryker cannot switch these on; each is killed by the test named when it is applied to the source by hand');
  out.push('(`node scripts/mutation-by-hand.mjs` does that for every one of them).');
  out.push('');
  out.push('| Where | Mutant | Killed, applied by hand, by | Why Stryker misses it |');
  out.push('|---|---|---|---|');
  for (const m of outOfReach.sort(byPlace)) out.push(`| ${where(m)} | ${what(m)} | ${noteFor(m).killedBy} | ${noteFor(m).outOfReach} |`);
  out.push('');
}
if (open.length) {
  out.push('### Without a test or a reason yet');
  out.push('');
  out.push('| Where | Mutant | Status |');
  out.push('|---|---|---|');
  for (const m of open.sort(byPlace)) out.push(`| ${where(m)} | ${what(m)} | ${m.status === 'NoCoverage' ? 'no test reaches it' : 'survived'} |`);
  out.push('');
}

// Notes on files no kept result measures (runs whose results were lost) wait for the file's next run.
const pinned = NOTES.filter((n) => n.killedBy && !n.outOfReach && files[n.file]);
const waiting = NOTES.filter((n) => n.killedBy && !n.outOfReach && !files[n.file]).length;
if (pinned.length || waiting) {
  out.push('## Survivors of earlier runs that a test now kills');
  out.push('');
  if (waiting) {
    out.push(`${waiting} more such notes are about files no kept result measures yet: each is checked again when a run measures its file.`);
    out.push('');
  }
}
if (pinned.length) {
  out.push('| Where | Mutant | Killed by |');
  out.push('|---|---|---|');
  for (const n of pinned) {
    // A note names a mutant by its code, which can occur more than once in a file (the same
    // literal in two places): it holds when none of them survives (one the type checker rejects
    // never ran). Stryker stops at the first test that fails, so the test written for a mutant
    // may not be the one it names: the report then names both.
    const matching = mutants.filter((x) => noteFor(x) === n);
    const killers = matching.flatMap((m) => m.killedBy ?? []);
    const alive = matching.find((m) => m.status === 'Survived' || m.status === 'NoCoverage');
    const ok = matching.length > 0 && !alive;
    const place = matching.length > 0 ? matching.map(where).join(', ') : `\`${n.file}\``;
    const why = matching.length === 0 ? 'mutant not found' : alive?.status;
    const other = killers.find((k) => !k.includes(n.killedBy));
    const killed = killers.some((k) => k.includes(n.killedBy)) || !other ? n.killedBy : `${n.killedBy} (Stryker stopped at an earlier failing test: ${other})`;
    out.push(
      `| ${place} | ${n.mutator}: ${code(n.original)} → ${code(n.replacement)} | ${ok ? killed : `**not confirmed by this report** (${why}); expected: ${n.killedBy}`} |`,
    );
  }
  out.push('');
}

writeFileSync(outFile, `${out.join('\n').trimEnd()}\n`);
const all = counts.get('all');
process.stdout.write(
  `${`mutation-report: ${relative(outFile)} (score ${pct(all && score(all))} over ${mutants.length} mutants, ${open.length} survivors without a note)`}\n`,
);
