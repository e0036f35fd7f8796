// The builder refuses bad settings before it touches a Docker engine: the emulator would exit on
// them, which a wait strategy only reports as a timeout minutes later. No engine is needed here.
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUILT_IMAGE, MeetingsEmulatorContainer } from 'meetings-emulator/testcontainers';

describe('MeetingsEmulatorContainer settings', () => {
  it.each([
    ['a clock mode', (c: MeetingsEmulatorContainer) => c.withClock('sundial' as 'real'), 'EMULATOR_CLOCK must be one of real, manual, got "sundial"'],
    [
      'a start time without a zone',
      (c: MeetingsEmulatorContainer) => c.withStartTime('2026-01-01T00:00:00'),
      'EMULATOR_START_TIME must be an ISO 8601 time with a zone',
    ],
    [
      'a passed-through variable',
      (c: MeetingsEmulatorContainer) => c.withEnvironment({ EMULATOR_SIMULATOR: 'sometimes' }),
      'EMULATOR_SIMULATOR must be one of auto, manual, got "sometimes"',
    ],
  ])('start() rejects %s with the reason', async (_what, configure, reason) => {
    await expect(configure(new MeetingsEmulatorContainer('never-pulled:latest')).start()).rejects.toThrow(reason);
  });

  it('withFixtures() checks a file at once', () => {
    expect(() => new MeetingsEmulatorContainer('never-pulled:latest').withFixtures('/nonexistent/fixtures.json')).toThrow(
      '/nonexistent/fixtures.json: cannot be read (ENOENT)',
    );
  });

  it('withFixtures() checks an object at once', () => {
    expect(() => new MeetingsEmulatorContainer('never-pulled:latest').withFixtures({ version: 1, organizations: [] } as never)).toThrow('withFixtures(): ');
  });

  it("in a checkout, start() builds the repository's Dockerfile under the checkout's tag", () => {
    // An installed package builds container/Dockerfile as meetings-emulator:testcontainers-package (test/install/package.test.ts).
    expect(DEFAULT_BUILT_IMAGE).toBe('meetings-emulator:testcontainers');
  });
});
