import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// vitest runs the groups one after another (`sequence.groupOrder`) and, within a group, queues the
// files project by project in the order of the projects' names, each project's slowest files first
// (by the last run's times, or on a fresh clone by size). So in the first group the two longest
// browser files start at once and the command-line and README files (`processes`) fill its end; in
// the second, the image and package files (`images`) start before the in-process files.

/** The first group (the browser files, then the command-line and README files) runs two files at a time; nothing of the second starts before its last has ended. */
const FIRST_GROUP = { sequence: { groupOrder: 0 } };

/**
 * The second group (the in-process files with the image and package files) runs one file more than
 * the cores. Its media files wait on real time for much of theirs (an encoder pushing at its frame
 * rate, the recorder on the real clock, ffmpeg), and with a worker per core those waits left the
 * cores idle a quarter of the time; the extra worker fills them (bench/TEST-SUITE.md). The projects
 * of a group must agree on the count. vitest's --maxWorkers on the command line reaches no project
 * (VITEST_MAX_WORKERS reaches every one).
 *
 * The containers the image files start publish their ports outside the range the machine hands
 * out by itself (src/core/host-ports.ts): podman forwards a stopped container's ports for a moment
 * after it has let them go, and an in-process emulator given such a port by the kernel had its
 * connections sent into the stopped container (a refused fetch, an ICE over TCP that never
 * connected) while it ran beside them.
 */
const SECOND_GROUP = { sequence: { groupOrder: 1 }, maxWorkers: availableParallelism() + 1 };

/**
 * Files that share their worker's modules: a worker imports the emulator once and runs them one after
 * another. A spy, an environment variable or a global a file forgets is restored for it.
 */
const SHARED_MODULES = { isolate: false, restoreMocks: true, unstubEnvs: true, unstubGlobals: true };

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
    projects: [
      {
        // The unit, integration, property and scenario files each start what they need (an emulator
        // in process, a receiver) and end it, and leave no module state behind, so they share their
        // worker's modules instead of importing the emulator anew for each file (a third of their
        // time; bench/TEST-SUITE.md). The servers the test apps' requests went to are closed after
        // each file (test/setup/in-process.ts).
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/{unit,integration,property,scenarios}/**/*.test.ts'],
          ...SECOND_GROUP,
          ...SHARED_MODULES,
          setupFiles: ['test/setup/in-process.ts'],
        },
      },
      {
        // The browser files start what they need in process (an emulator, Chromium, the pages'
        // origins) and end it after their tests, whatever failed (test/helpers/end-all.ts), and read
        // nothing at load that another file changes, so they share their worker's modules too:
        // importing the emulator afresh for each took 16 s of a run of their group, 5.5 s so.
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          ...FIRST_GROUP,
          ...SHARED_MODULES,
        },
      },
      {
        // The command-line and README files start processes of their own, and some read the process's
        // environment as they load: each is imported afresh. They run after the browser files.
        extends: true,
        test: {
          name: 'processes',
          include: ['test/{cli,readme}/**/*.test.ts'],
          ...FIRST_GROUP,
        },
      },
      {
        // The container and package files build an image and pack and install the package, which
        // takes both cores at their start. Each time a browser test failed on a loaded CI run (a kit
        // that never showed its controls, a page whose SDK threw as it changed meetings), these files
        // were running beside it, and the pages' SDKs give up on deadlines of their own. So they run
        // after the browser files, beside the in-process files; each is imported afresh.
        extends: true,
        test: {
          name: 'images',
          include: ['test/{container,install}/**/*.test.ts'],
          ...SECOND_GROUP,
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
