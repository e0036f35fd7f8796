import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * vitest's own order (the files of one project after another's, by the projects' names; the slowest
 * first within each, by the last run's times or, on a fresh clone, by size), except that the files
 * with fresh modules come first: they hold the longest files (the browser tests, minutes each), which
 * must start at once for the two workers to end together.
 */
class FreshModulesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const fresh = (f: TestSpecification) => f.project.config.isolate !== false;
    return [...sorted.filter(fresh), ...sorted.filter((f) => !fresh(f))];
  }
}

export default defineConfig({
  resolve: {
    // The README's example imports the package by name, as a user would.
    // The subpath comes first: an alias also matches every path below its name.
    alias: {
      'meetings-emulator/testcontainers': fileURLToPath(new URL('./src/testcontainers.ts', import.meta.url)),
      'meetings-emulator': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'node',
    sequence: { sequencer: FreshModulesFirst },
    projects: [
      {
        // The unit, integration, property and scenario files each start what they need (an emulator
        // in process, a receiver) and end it, and leave no module state behind: one worker runs them
        // one after another in the same module graph instead of importing the emulator anew for each
        // file (a third of their time; bench/TEST-SUITE.md). A spy a file forgets is restored for it;
        // the servers the test apps' requests went to are closed after it (test/setup/in-process.ts).
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/{unit,integration,property,scenarios}/**/*.test.ts'],
          isolate: false,
          setupFiles: ['test/setup/in-process.ts'],
          restoreMocks: true,
          unstubEnvs: true,
          unstubGlobals: true,
        },
      },
      {
        // The browser, media, command-line, container and package files start processes, browsers
        // and images of their own, and some read the process's environment as they load: each is
        // imported afresh.
        extends: true,
        test: {
          name: 'processes',
          include: ['test/{browser,cli,container,install,readme}/**/*.test.ts'],
        },
      },
    ],
    // vitest's default is one worker fewer than the cores: a single file at a time on two cores. The
    // browser and media files spend much of their time waiting on Chromium, ffmpeg and the media
    // plane, so two files side by side take about 60 % of the time there (bench/TEST-SUITE.md); a
    // third made the browser tests miss their waits on such a machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Tests drive time with the manual clock; these timeouts only guard against hangs.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The JSON report gives .ci/run its closing line.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
