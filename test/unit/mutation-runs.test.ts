// Which files and lines a mutation run measured (scripts/mutation-runs.mjs), as `npm run mutate`
// and scripts/mutation-fold.mjs merge them into one report: a whole-file run replaces the file's
// result; a run of some lines replaces those lines' mutants only, and only in the same code.
import { describe, expect, it } from 'vitest';
import { MUTATE, TEST_FILES, linesBy, mutatedBy, optionIn, testFilesOf, withLines, type FileResult, type Mutant } from '../../scripts/mutation-runs.mjs';
import { sourceHash } from '../../scripts/mutation-store.mjs';

const run = (mutate: string) => ({
  started: '2026-11-27T00:00:00.000Z',
  command: `npm run mutate -- --mutate ${mutate} --testFiles t.test.ts`,
  seconds: 1,
  exitCode: 0,
});
const at = (id: string, line: number, endLine = line, status = 'Survived'): Mutant => ({
  id,
  status,
  location: { start: { line, column: 3 }, end: { line: endLine, column: 9 } },
});
const SOURCE = 'a\nb\nc\nd\ne\nf\n';

describe('the files and lines a run names', () => {
  it('a glob measures the files it matches whole; a line range measures none whole', () => {
    const measured = mutatedBy(run("'src/http/v1/**/*.ts,src/http/auth.ts:10-20'"));
    expect(measured('src/http/v1/products.routes.ts')).toBe(true);
    expect(measured('src/http/auth.ts')).toBe(false);
    expect(measured('src/http/validation.ts')).toBe(false);
  });

  it('gathers the line ranges per file, and leaves globs and single lines out (Stryker takes no single line)', () => {
    const lines = linesBy(run('src/a.ts:10-20,src/b.ts:3-4,src/a.ts:31-31,src/c.ts:7,src/**/*.ts'));
    expect([...lines]).toEqual([
      [
        'src/a.ts',
        [
          [10, 20],
          [31, 31],
        ],
      ],
      ['src/b.ts', [[3, 4]]],
    ]);
  });

  it('a run without --mutate measures every file of src/ whole', () => {
    const measured = mutatedBy({ ...run('x'), command: 'npm run mutate' });
    expect(measured('src/core/clock.ts')).toBe(true);
    expect(linesBy({ ...run('x'), command: 'npm run mutate' }).size).toBe(0);
  });
});

describe("a run's options, in every form Stryker's command line takes", () => {
  const command = (args: string) => ({ ...run('x'), command: `npm run mutate -- ${args}` });

  it.each([
    ['--mutate src/a.ts --testFiles t.test.ts,u.test.ts'],
    ['--mutate=src/a.ts --testFiles=t.test.ts,u.test.ts'],
    ['-m src/a.ts -t t.test.ts,u.test.ts'],
    ['-msrc/a.ts -tt.test.ts,u.test.ts'],
    ['--mutate src/b.ts --concurrency 2 -m src/a.ts --testFiles=x.test.ts -t t.test.ts,u.test.ts'],
  ])('%s mutates src/a.ts alone and runs t.test.ts and u.test.ts (the last one given wins)', (args) => {
    const measured = mutatedBy(command(args));
    expect(['src/a.ts', 'src/b.ts', 'src/core/clock.ts'].map(measured)).toEqual([true, false, false]);
    expect(testFilesOf(command(args))).toEqual(['t.test.ts', 'u.test.ts']);
  });

  it('reads line ranges given with = too', () => {
    expect([...linesBy(command('--mutate=src/a.ts:3-4'))]).toEqual([['src/a.ts', [[3, 4]]]]);
  });

  it('says where the value sits, so that it can be rewritten in the form it was given', () => {
    const args = ['--concurrency', '2', '-m', 'src/a.ts', '--testFiles=t.test.ts', '--timeoutMS', '9000'];
    expect(optionIn(args, MUTATE)).toEqual({ index: 3, prefix: '', value: 'src/a.ts' });
    expect(optionIn(args, TEST_FILES)).toEqual({ index: 4, prefix: '--testFiles=', value: 't.test.ts' });
    expect(optionIn(['--timeoutMS', '9000', '--mutate'], MUTATE)).toBeUndefined();
    expect(optionIn(['npm', 'run', 'mutate', '--'], TEST_FILES)).toBeUndefined();
  });
});

describe('a run of some lines, merged over the whole-file result', () => {
  const previous: FileResult = { sha: sourceHash(SOURCE), run: 4, mutants: [at('1', 1), at('2', 2), at('3', 3, 4), at('4', 5), at('5', 6)] };

  it('replaces the mutants wholly inside the lines, keeps the others, in place order, and notes the run', () => {
    const result: FileResult = { sha: sourceHash(SOURCE), mutants: [at('9:1', 2, 2, 'Killed'), at('9:2', 3, 4, 'Killed')] };
    const next = withLines(previous, result, [[2, 4]], 9);
    expect(next?.mutants.map((m) => [m.id, m.status])).toEqual([
      ['1', 'Survived'],
      ['9:1', 'Killed'],
      ['9:2', 'Killed'],
      ['4', 'Survived'],
      ['5', 'Survived'],
    ]);
    expect(next?.run).toBe(4);
    expect(next?.lineRuns).toEqual([9]);
    expect(withLines(next, { sha: sourceHash(SOURCE), mutants: [at('11:1', 6, 6, 'Killed')] }, [[6, 6]], 11)?.lineRuns).toEqual([9, 11]);
  });

  it('a mutant that only starts inside the lines is not one of them (Stryker mutates what lies wholly inside)', () => {
    const next = withLines(previous, { sha: sourceHash(SOURCE), mutants: [at('9:1', 3, 4, 'Killed')] }, [[3, 3]], 9);
    expect(next?.mutants.map((m) => m.id)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('a mutant the run no longer finds on those lines is dropped', () => {
    const next = withLines(previous, { sha: sourceHash(SOURCE), mutants: [] }, [[5, 5]], 9);
    expect(next?.mutants.map((m) => m.id)).toEqual(['1', '2', '3', '5']);
  });

  it('refuses when the file changed since its whole-file run, or none measured it', () => {
    expect(withLines(previous, { sha: sourceHash(`${SOURCE}g\n`), mutants: [at('9:1', 2)] }, [[2, 2]], 9)).toBeUndefined();
    expect(withLines(undefined, { sha: sourceHash(SOURCE), mutants: [at('9:1', 2)] }, [[2, 2]], 9)).toBeUndefined();
  });
});
