// Types of scripts/mutation-store.mjs, for its unit test (test/unit/mutation-store.test.ts).
import type { FileResult, Location, Run } from './mutation-runs.mjs';

export interface Store {
  runs: Run[];
  files: Record<string, FileResult>;
}
/** The parts of Stryker's JSON report the store reads. */
export interface StrykerReport {
  files: Record<
    string,
    { source: string; mutants: Array<{ id: string; mutatorName: string; replacement?: string; location: Location; status: string; killedBy?: string[] }> }
  >;
  testFiles?: Record<string, { tests: Array<{ id: string; name: string }> }>;
}
export declare const STORE_DIR: string;
export declare function readStore(root: string): Store;
export declare function writeStore(root: string, store: Store): void;
export declare const mutantKey: (file: string, mutator: string, original: string, replacement: string | undefined) => string;
export declare const sourceHash: (source: string) => string;
export declare function originalOf(source: string, location: Location): string;
export declare function testNamesOf(report: StrykerReport, relative: (file: string) => string): Map<string, string>;
export declare function keptResult(result: StrykerReport['files'][string], testNames: Map<string, string>, run: number): FileResult;
export declare function addRun(store: Store, run: Run, report: StrykerReport | undefined, relative: (file: string) => string): string[];
export declare const relativeTo: (root: string) => (file: string) => string;
