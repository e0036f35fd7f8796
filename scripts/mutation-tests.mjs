// Which test files hold a test, by its name: the kill notes of mutation-notes.mjs name tests, and a
// run with --testFiles must include the files that hold them, or their mutants show as survivors for
// want of the test that kills them. `npm run mutate` adds those files itself (withKillNoteTests), and
// `node scripts/mutation-by-hand.mjs` runs a note's test from them.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { NOTES } from './mutation-notes.mjs';
import { MUTATE, TEST_FILES, linesBy, listIn, mutatedBy, optionIn } from './mutation-runs.mjs';

/**
 * Every test of the suite Stryker runs, as { name, file }: Vitest's own list, so a name made by
 * it.each or a template is there with its values. `name` is the full name, describe blocks first,
 * joined by " > "; `file` is relative to root.
 */
export function listTests(root) {
  const vitest = path.join(root, 'node_modules/.bin/vitest');
  const r = spawnSync(vitest, ['list', '--json', '--config', 'vitest.stryker.config.ts'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`vitest list failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout).map(({ name, file }) => ({
    name,
    file: path.relative(root, file).split(path.sep).join('/'),
  }));
}

/**
 * The test files that hold a test the name fits as `vitest -t` reads it: a part of the test's full
 * name, its describe blocks and its title joined by spaces (as Stryker names a test).
 */
export function testFilesNaming(title, tests) {
  const files = new Set();
  for (const { name, file } of tests) if (name.split(' > ').join(' ').includes(title)) files.add(file);
  return [...files];
}

/** The text as a regular expression that matches it literally (for `vitest -t`). */
export const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * StrykerJS arguments with --testFiles grown by every test file that holds a test named by a kill note
 * on a file the run mutates, and the files it added; each option may be given in any of its forms
 * (`optionIn`). Arguments without both --mutate and --testFiles come back as they are: a run without
 * --testFiles runs every test already. `list` gives the suite's tests (Vitest's list unless a test
 * hands in its own), and `notes` the notes to read.
 */
export function withKillNoteTests(root, args, list = listTests, notes = NOTES) {
  const testFiles = optionIn(args, TEST_FILES);
  const listed = listIn(testFiles);
  if (!listIn(optionIn(args, MUTATE))?.length || !listed?.length) return { args, added: [] };
  // The files the run mutates, whole or by lines, read as the report reads a run's command.
  const run = { command: args.join(' ') };
  const whole = mutatedBy(run);
  const byLines = linesBy(run);
  const named = notes.filter((note) => note.killedBy && (whole(note.file) || byLines.has(note.file)));
  if (named.length === 0) return { args, added: [] };
  const tests = list(root);
  const added = [];
  for (const note of named) for (const file of testFilesNaming(note.killedBy, tests)) if (!listed.includes(file) && !added.includes(file)) added.push(file);
  const grown = [...args];
  grown[testFiles.index] = `${testFiles.prefix}${[...listed, ...added].join(',')}`;
  return { args: grown, added };
}
