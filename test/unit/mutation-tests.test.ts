// How `npm run mutate` finds the test files that kill notes name (scripts/mutation-tests.mjs): a run
// limited by --testFiles must also run them, or a mutant a note says is killed shows as a survivor.
import { describe, expect, it } from 'vitest';
import { testFilesNaming, withKillNoteTests } from '../../scripts/mutation-tests.mjs';
import type { Note } from '../../scripts/mutation-notes.mjs';

// Vitest's list of the suite, as `vitest list --json` gives it (describe blocks joined by " > ").
const TESTS = [
  { name: 'RouteTable.resolve > HEAD /v2/meetings/{id} → GET (v2)', file: 'test/unit/route-table.test.ts' },
  { name: 'filters and sorts: participants=1:1', file: 'test/integration/v2/sessions.test.ts' },
  { name: 'search matches the display name', file: 'test/integration/v2/sessions.test.ts' },
  { name: 'paging > a page past the end is empty', file: 'test/unit/paging.test.ts' },
  { name: 'prefix > a page past the end is empty', file: 'test/integration/realtimekit/prefix.test.ts' },
];
const note = (file: string, killedBy: string): Note => ({ file, mutator: 'StringLiteral', original: "'a'", replacement: '""', killedBy });
const NOTES: Note[] = [
  note('src/domain/paging.ts', 'a page past the end is empty'),
  note('src/domain/sessions/session-history.service.ts', 'filters and sorts: participants=1:1'),
  note('src/http/route-table.ts', 'RouteTable.resolve HEAD /v2/meetings/{id} → GET (v2)'),
  { file: 'src/http/auth.ts', mutator: 'StringLiteral', original: "''", replacement: '"x"', equivalent: 'never read' },
];
const list = () => TESTS;

describe('the test files a kill note names', () => {
  it('are found by the full name Stryker gives, describe blocks joined by spaces, or by any part of it', () => {
    expect(testFilesNaming('RouteTable.resolve HEAD /v2/meetings/{id} → GET (v2)', TESTS)).toEqual(['test/unit/route-table.test.ts']);
    expect(testFilesNaming('search matches the', TESTS)).toEqual(['test/integration/v2/sessions.test.ts']);
    expect(testFilesNaming('a page past the end is empty', TESTS)).toEqual(['test/unit/paging.test.ts', 'test/integration/realtimekit/prefix.test.ts']);
    expect(testFilesNaming('a test nobody wrote', TESTS)).toEqual([]);
  });

  it('join --testFiles for the notes on the files --mutate names: a path, a line range or a glob', () => {
    const run = (mutate: string, testFiles: string) => withKillNoteTests('.', ['--mutate', mutate, '--testFiles', testFiles], list, NOTES);
    expect(run('src/domain/paging.ts:46-46', 'test/unit/paging.test.ts')).toEqual({
      args: ['--mutate', 'src/domain/paging.ts:46-46', '--testFiles', 'test/unit/paging.test.ts,test/integration/realtimekit/prefix.test.ts'],
      added: ['test/integration/realtimekit/prefix.test.ts'],
    });
    expect(run('src/domain/**/*.ts', 'test/x.test.ts').added).toEqual([
      'test/unit/paging.test.ts',
      'test/integration/realtimekit/prefix.test.ts',
      'test/integration/v2/sessions.test.ts',
    ]);
    // One star stays within a folder; a file named outright matches itself only.
    expect(run('src/domain/*.ts', 'test/x.test.ts').added).toEqual(['test/unit/paging.test.ts', 'test/integration/realtimekit/prefix.test.ts']);
    expect(run('src/http/route-table.ts,src/http/auth.ts', 'test/x.test.ts').added).toEqual(['test/unit/route-table.test.ts']);
    expect(run('src/http/route.ts', 'test/x.test.ts').added).toEqual([]);
  });

  it('grow --testFiles in the form it was given: --testFiles=, -t', () => {
    expect(withKillNoteTests('.', ['--mutate=src/domain/paging.ts', '--testFiles=test/unit/paging.test.ts'], list, NOTES)).toEqual({
      args: ['--mutate=src/domain/paging.ts', '--testFiles=test/unit/paging.test.ts,test/integration/realtimekit/prefix.test.ts'],
      added: ['test/integration/realtimekit/prefix.test.ts'],
    });
    expect(withKillNoteTests('.', ['-m', 'src/http/route-table.ts', '-t', 'test/x.test.ts'], list, NOTES).args).toEqual([
      '-m',
      'src/http/route-table.ts',
      '-t',
      'test/x.test.ts,test/unit/route-table.test.ts',
    ]);
  });

  it('leave a run without --testFiles as it is, and do not list the suite for it', () => {
    const args = ['--mutate', 'src/domain/**/*.ts'];
    const untouched = () => {
      throw new Error('listed the suite');
    };
    expect(withKillNoteTests('.', args, untouched, NOTES)).toEqual({ args, added: [] });
    expect(withKillNoteTests('.', ['--mutate', 'src/core/clock.ts', '--testFiles', 'test/a.test.ts'], untouched, NOTES).added).toEqual([]);
  });
});
