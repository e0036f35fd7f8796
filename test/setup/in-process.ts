// Before each in-process test file: what the shared helpers start for the file ends after it.
import { afterAll } from 'vitest';
import { closeTestServers } from '../helpers/test-app.js';

afterAll(closeTestServers);
