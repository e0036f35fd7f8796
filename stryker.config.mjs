// Mutation testing (CONTRIBUTING.md, "Mutation testing"): `npm run mutate`, or one folder with
// `npm run mutate -- --mutate 'src/core/**/*.ts'`. Not part of `npm test`: it takes hours.
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
  mutate: [
    'src/**/*.ts',
    // The dashboard is browser code, tested only through Chromium (test/browser), which Stryker does not run.
    '!src/ui/app/**',
    '!src/**/*.d.ts',
  ],
  // A rerun tests only mutants whose code or covering tests changed; results of folders outside
  // --mutate are kept, so folder-by-folder runs add up to one report. The file lives in reports/
  // (not committed): it is a cache of one machine's runs, large and conflicting on every merge.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  // 85 % is the goal per folder (src/core, src/domain, src/http, src/webhooks); below 70 % is red.
  // No break threshold: a low score is read in bench/MUTATION.md, it does not fail a command.
  thresholds: { high: 85, low: 70, break: null },
  // The machine is shared: one test runner unless asked (--concurrency 2).
  concurrency: 1,
  // The first, instrumented run of the whole suite takes 5 to 10 minutes on a loaded 2-core machine.
  dryRunTimeoutMinutes: 30,
  // A mutant in code that runs when a module loads (a constant table, a schema) is reached by
  // every test, so testing it means running the whole suite again: minutes per mutant. They are
  // reported as ignored ("Static") and counted in bench/MUTATION.md; `--ignoreStatic false`
  // tests them too, on a machine that has the hours.
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
