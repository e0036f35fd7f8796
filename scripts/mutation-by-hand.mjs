// Checks the mutants Stryker cannot switch on (notes with `outOfReach` in mutation-notes.mjs):
// applies each to its source file as Stryker made it (the results kept in bench/mutation/), runs the
// test the note names, and restores the file. It passes when every such test fails on its mutant.
// Usage: node scripts/mutation-by-hand.mjs   (after a run; it changes src/ only while it runs)
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { NOTES } from './mutation-notes.mjs';
import { testFilesOf } from './mutation-runs.mjs';
import { mutantKey, readStore, sourceHash } from './mutation-store.mjs';
import { escapeRegExp, listTests, testFilesNaming } from './mutation-tests.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { runs, files } = readStore(ROOT);
const say = (line) => process.stdout.write(`${line}\n`);
// Vitest's summary line, without its colours (ESC [ ... m).
const plain = (text) => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
const squash = (text) => text.replace(/\s+/g, ' ').trim();

/** The source with the mutant's replacement at its place (Stryker's lines and columns count from 1). */
function mutated(source, { location: { start, end }, replacement }) {
  const lines = source.split('\n');
  const offset = (p) => lines.slice(0, p.line - 1).reduce((n, l) => n + l.length + 1, 0) + p.column - 1;
  return source.slice(0, offset(start)) + replacement + source.slice(offset(end));
}

const tests = listTests(ROOT);
/** The test files that hold the test, else those of the file's run. */
function testFilesFor(name, result) {
  const holding = testFilesNaming(name, tests);
  if (holding.length > 0) return holding;
  return testFilesOf({ command: runs[result.run]?.command ?? '' }) ?? ['test'];
}

let failures = 0;
let checked = 0;
for (const note of NOTES.filter((n) => n.outOfReach)) {
  const result = files[note.file];
  const source = readFileSync(path.join(ROOT, note.file), 'utf8');
  const key = mutantKey(note.file, note.mutator, note.original, note.replacement);
  const places = (result?.mutants ?? []).filter((m) => mutantKey(note.file, m.mutatorName, m.original, m.replacement) === key);
  if (places.length === 0 || result.sha !== sourceHash(source)) {
    say(`? ${key}: ${!result ? 'no kept result of the file: mutate it again' : places.length ? 'the file changed since its run' : 'mutant not found'}`);
    failures += 1;
    continue;
  }
  for (const m of places) {
    writeFileSync(path.join(ROOT, note.file), mutated(source, m));
    try {
      const escaped = escapeRegExp(note.killedBy);
      const testFiles = testFilesFor(note.killedBy, result);
      const r = spawnSync('npx', ['vitest', 'run', ...testFiles, '-t', escaped], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
      const ran = /Tests\s+.*?(\d+) failed/.exec(plain(r.stdout));
      const killed = r.status !== 0 && ran !== null;
      checked += 1;
      if (!killed) failures += 1;
      say(`${killed ? 'killed' : 'NOT KILLED'}  ${note.file}:${m.location.start.line} ${note.mutator} → ${squash(m.replacement)}  by "${note.killedBy}"`);
    } finally {
      writeFileSync(path.join(ROOT, note.file), source);
    }
  }
}
say(`mutation-by-hand: ${checked} applied, ${failures} not killed or not found`);
process.exit(failures ? 1 : 0);
