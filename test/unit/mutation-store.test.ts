// The mutation results kept in the repository (scripts/mutation-store.mjs): a run of Stryker added
// to them keeps what bench/MUTATION.md is written from, survives being written and read back, and
// a run of some lines replaces only those lines' mutants of a file that did not change.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../scripts/mutation-runs.mjs';
import { addRun, readStore, relativeTo, writeStore, type Store, type StrykerReport } from '../../scripts/mutation-store.mjs';

const ROOT = '/checkout';
const relative = relativeTo(ROOT);
const SOURCE = 'const a = 1 < 2;\nexport const b = a ? "x" : "y";\n';
const run = (mutate: string, exitCode: number | null = 0): Run => ({
  started: '2026-11-27T09:00:00.000Z',
  command: `npm run mutate -- --mutate ${mutate}`,
  seconds: 60,
  exitCode,
});

/** Stryker's report of one run over src/a.ts: a mutant on each line, the first killed by one test. */
function report(source = SOURCE, secondStatus = 'Survived'): StrykerReport {
  return {
    files: {
      [`${ROOT}/src/a.ts`]: {
        source,
        mutants: [
          {
            id: '0',
            mutatorName: 'EqualityOperator',
            replacement: '1 <= 2',
            location: { start: { line: 1, column: 11 }, end: { line: 1, column: 16 } },
            status: 'Killed',
            killedBy: ['7'],
          },
          {
            id: '1',
            mutatorName: 'StringLiteral',
            replacement: '""',
            location: { start: { line: 2, column: 22 }, end: { line: 2, column: 25 } },
            status: secondStatus,
          },
        ],
      },
    },
    testFiles: { [`${ROOT}/test/a.test.ts`]: { tests: [{ id: '7', name: 'compares' }] } },
  };
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the kept mutation results', () => {
  it('keep of each mutant the code it replaces, its status and its killing tests by name, and of the file a hash of its source', () => {
    const store: Store = { runs: [], files: {} };
    expect(addRun(store, run('src/a.ts'), report(), relative)).toEqual([]);
    expect(store.runs).toHaveLength(1);
    const kept = store.files['src/a.ts']!;
    expect(kept.run).toBe(0);
    expect(kept.sha).toMatch(/^[0-9a-f]{16}$/);
    expect(kept.mutants).toEqual([
      {
        mutatorName: 'EqualityOperator',
        replacement: '1 <= 2',
        original: '1 < 2',
        location: { start: { line: 1, column: 11 }, end: { line: 1, column: 16 } },
        status: 'Killed',
        killedBy: ['test/a.test.ts › compares'],
      },
      {
        mutatorName: 'StringLiteral',
        replacement: '""',
        original: '"x"',
        location: { start: { line: 2, column: 22 }, end: { line: 2, column: 25 } },
        status: 'Survived',
      },
    ]);
  });

  it('a run of some lines replaces those lines only, while the file is as its whole run measured it', () => {
    const store: Store = { runs: [], files: {} };
    addRun(store, run('src/a.ts'), report(), relative);
    addRun(store, run('src/a.ts:2-2'), report(SOURCE, 'Killed'), relative);
    expect(store.files['src/a.ts']!.mutants.map((m) => m.status)).toEqual(['Killed', 'Killed']);
    expect(store.files['src/a.ts']!.run).toBe(0);
    expect(store.files['src/a.ts']!.lineRuns).toEqual([1]);
    // The file changed since: its lines no longer name the same code.
    expect(addRun(store, run('src/a.ts:2-2'), report(`${SOURCE}// more\n`, 'Survived'), relative)).toEqual([
      'src/a.ts kept as it was: it changed since a run of the whole file measured it (or none did); mutate the whole file',
    ]);
    expect(store.files['src/a.ts']!.mutants[1]!.status).toBe('Killed');
  });

  it('a run that failed or was stopped is noted, and changes no result', () => {
    const store: Store = { runs: [], files: {} };
    addRun(store, run('src/a.ts'), report(), relative);
    const before = structuredClone(store.files);
    addRun(store, run('src/a.ts', 1), report(SOURCE, 'Killed'), relative);
    addRun(store, run('src/a.ts', null), undefined, relative);
    expect(store.runs.map((r) => r.exitCode)).toEqual([0, 1, null]);
    expect(store.files).toEqual(before);
  });

  it('read back as written, one run and one mutant per line', () => {
    dir = mkdtempSync(join(tmpdir(), 'mutation-store-'));
    const store: Store = { runs: [], files: {} };
    addRun(store, run('src/a.ts'), report(), relative);
    writeStore(dir, store);
    expect(readStore(dir)).toEqual(store);
    const results = readFileSync(join(dir, 'bench/mutation/results.json'), 'utf8').split('\n');
    expect(results.filter((line) => line.includes('"mutatorName"'))).toHaveLength(2);
    expect(readStore(join(dir, 'none'))).toEqual({ runs: [], files: {} });
  });
});
