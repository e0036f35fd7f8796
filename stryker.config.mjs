// Mutation testing: `npm run mutate` (that is, `stryker run`), or one file with
// `npm run mutate -- --mutate src/core/clock.ts`. CONTRIBUTING.md, "Mutation testing", says how to
// read the report and mark an equivalent mutant. Not part of `npm test` or .ci/run: it takes hours.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: {
    // The suite without the tests that run the emulator out of process (see the file).
    configFile: 'vitest.stryker.config.ts',
  },
  // Each mutant runs only the tests that reached it in the first, instrumented run.
  coverageAnalysis: 'perTest',
  // Mutants that do not type-check are reported as compile errors instead of being tested.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // The four folders the break threshold below was measured on. Other code (src/realtime,
  // src/store, src/simulator and the rest) has no measured score yet: mutate it on purpose with
  // `--mutate`, which replaces this list, and the threshold then speaks for that run alone. Leave
  // out the dashboard (src/ui/app): browser code, tested only through Chromium (test/browser),
  // which Stryker does not run.
  mutate: ['src/core/**/*.ts', 'src/domain/**/*.ts', 'src/http/**/*.ts', 'src/webhooks/**/*.ts', '!src/**/*.d.ts'],
  // A rerun tests only the mutants whose code or covering tests changed. The file stays in
  // reports/ (not committed): it is one machine's cache, and it would conflict on every merge.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  // Every mutant of these four folders that survived the last measurement is now killed by a test
  // or marked equivalent at its line (`// Stryker disable next-line <Mutator>: <why>`), so
  // Stryker's score, which leaves ignored mutants out, is 100 % there. The break at 99 leaves room
  // for a mutant that timed out on a loaded machine and survives on a quiet one; a new survivor in
  // a run of one small file fails it, which is the point: add a test, or mark it with its reason.
  thresholds: { high: 100, low: 99, break: 99 },
  // The machine is shared: one test runner unless asked (--concurrency 2).
  concurrency: 1,
  // The first, instrumented run of the whole suite takes 5 to 10 minutes on a loaded 2-core machine.
  dryRunTimeoutMinutes: 30,
  // A mutant in code that runs only when a module loads (a constant table, a schema) is reached by
  // every test, so testing it means running the whole suite again: minutes per mutant. Stryker
  // reports it as Ignored ("Static mutant"); `--ignoreStatic false` tests them too, on a machine
  // that has the hours. Code that runs at load and in tests too is still tested, and a mutant of
  // it can survive only because the module that used it loaded first: the preset document
  // schemas (src/domain/presets/preset-document.ts) are such code, marked at their lines.
  ignoreStatic: true,
  // A mutant that loops forever is a timeout, not a hang: on top of the test's own time.
  timeoutMS: 10_000,
  timeoutFactor: 2,
  // `@ts-nocheck` goes atop the mutated sources only. By default Stryker rewrites every *.ts file
  // of the sandbox: that corrupts the MPEG-TS segments in fixtures/media/hls (read and written
  // as UTF-8 text) and changes the test file the README quotes (test/readme/readme-sync.test.ts).
  disableTypeChecks: 'src/**/*.ts',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['dist', 'coverage', 'reports', '.state', '.scratch', '.test-results', 'docs/images'],
};
