// Types of scripts/mutation-tests.mjs, for its unit test (test/unit/mutation-tests.test.ts).
import type { Note } from './mutation-notes.mjs';

export interface ListedTest {
  name: string;
  file: string;
}
export declare function listTests(root: string): ListedTest[];
export declare function testFilesNaming(title: string, tests: ListedTest[]): string[];
export declare function withKillNoteTests(
  root: string,
  args: string[],
  list?: (root: string) => ListedTest[],
  notes?: Note[],
): { args: string[]; added: string[] };
export declare const escapeRegExp: (text: string) => string;
