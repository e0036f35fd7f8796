// Types of scripts/mutation-runs.mjs, for its unit tests (test/unit/mutation-runs.test.ts, mutation-store.test.ts).
export interface Run {
  started: string;
  command: string;
  seconds: number;
  exitCode: number | null;
  /** false for a run whose results are not kept (made before they were kept in the repository). */
  kept?: false;
}
export interface Location {
  start: { line: number; column: number };
  end: { line: number; column: number };
}
export interface Mutant {
  id?: string;
  location: Location;
  status: string;
  [key: string]: unknown;
}
/** A file's result as bench/mutation/results.json keeps it (scripts/mutation-store.mjs). */
export interface FileResult {
  sha: string;
  mutants: Mutant[];
  run?: number;
  lineRuns?: number[];
  [key: string]: unknown;
}
export declare const globRegex: (glob: string) => RegExp;
export interface OptionAt {
  index: number;
  prefix: string;
  value: string;
}
export declare function optionIn(args: string[], names: readonly [string, string]): OptionAt | undefined;
export declare const listIn: (found: OptionAt | undefined) => string[] | undefined;
export declare const MUTATE: [string, string];
export declare const TEST_FILES: [string, string];
export declare const testFilesOf: (run: Run) => string[] | undefined;
export declare const mutatedBy: (run: Run) => (file: string) => boolean;
export declare const linesBy: (run: Run) => Map<string, Array<[number, number]>>;
export declare const inLines: (location: Location, pairs: Array<[number, number]>) => boolean;
export declare const withLines: (previous: FileResult | undefined, result: FileResult, pairs: Array<[number, number]>, run: number) => FileResult | undefined;
