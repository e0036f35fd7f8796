// Whether a Docker engine API is there for the tests that start containers. Without one they
// cannot say anything: they are skipped with the reason, except under CI, where that is a failure
// (a test that skips in CI could never fail). docs/testcontainers.md shows how to run them.
import { existsSync } from 'node:fs';

/** Why no container can be started here, or undefined when an engine is named or at its usual socket. */
export const engineMissing: string | undefined =
  process.env.DOCKER_HOST || existsSync('/var/run/docker.sock')
    ? undefined
    : 'no Docker engine: DOCKER_HOST is unset and /var/run/docker.sock is absent (docs/testcontainers.md shows how to run this test)';

/** CI=true (or any value but empty, false and 0). */
export const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';
