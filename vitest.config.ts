import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The workers of the second group (the in-process files with the image and package files): one more
 * than the cores. Its media files wait on real time for much of theirs (an encoder pushing at its
 * frame rate, the recorder on the real clock, ffmpeg), and with a worker per core those waits left
 * the cores idle a quarter of the time; the extra worker fills them (bench/TEST-SUITE.md). Each of
 * the group's projects sets the count, and they must agree; vitest's --maxWorkers on the command
 * line reaches no project.
 */
const SECOND_GROUP_WORKERS = availableParallelism() + 1;

/**
 * vitest's own order (the slowest files first, by the last run's times or, on a fresh clone, by
 * size), except that the image and package files come first in their group: they must be done well
 * before the in-process files are. In the first group that order starts the two longest browser
 * files at once, so that the two workers end together.
 */
class ImagesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const images = (f: TestSpecification) => f.project.name === 'images';
    return [...sorted.filter(images), ...sorted.filter((f) => !images(f))];
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
    // dist/bin and dist/ui up to date with src/, once for the run: the command-line tests run the bundled
    // command line, the dashboard test its build, and an emulator started in process its media plane's bundle.
    globalSetup: ['test/setup/bundles.ts'],
    sequence: { sequencer: ImagesFirst },
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
          sequence: { groupOrder: 1 },
          maxWorkers: SECOND_GROUP_WORKERS,
          isolate: false,
          setupFiles: ['test/setup/in-process.ts'],
          restoreMocks: true,
          unstubEnvs: true,
          unstubGlobals: true,
        },
      },
      {
        // The browser files start what they need in process (an emulator, Chromium, the pages'
        // origins) and end it after their tests, as the in-process files do, and read nothing at load
        // that another file changes: a worker runs them one after another in the same module graph.
        // Importing the emulator afresh for each took 16.8 s of the group's time (bench/TEST-SUITE.md).
        // Their group runs first, two files at a time; nothing else starts before its last has ended.
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          isolate: false,
        },
      },
      {
        // The command-line and README files start processes of their own, and some read the process's
        // environment as they load: each is imported afresh. They run beside the browser files.
        extends: true,
        test: {
          name: 'processes',
          include: ['test/{cli,readme}/**/*.test.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The container and package files build an image and pack and install the package, which
        // takes both cores at their start. Each time a browser test failed on a loaded CI run (a kit
        // that never showed its controls, a page whose SDK threw as it changed meetings), these files
        // were running beside it, and the pages' SDKs give up on deadlines of their own. So they run
        // after the browser files, beside the in-process files, whose tests move time by the manual
        // clock almost everywhere; each is imported afresh.
        extends: true,
        test: {
          name: 'images',
          include: ['test/{container,install}/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: SECOND_GROUP_WORKERS,
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
