// The version is written once, in package.json: every place that shows it shows that one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { WEBHOOK_USER_AGENT } from '../../src/webhooks/outbox.js';
import { makeTestApp } from '../helpers/test-app.js';

const packageJson = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };

it('the health answer, the OpenAPI document and the webhook User-Agent carry the version of package.json', async () => {
  const { api } = makeTestApp();
  expect(packageJson.version).toMatch(/^\d+\.\d+\.\d+/);
  expect((await api.get('/_emulator/health').expect(200)).body.version).toBe(packageJson.version);
  expect((await api.get('/_emulator/openapi.json').expect(200)).body.info.version).toBe(packageJson.version);
  expect(WEBHOOK_USER_AGENT).toBe(`meetings-emulator-webhooks/${packageJson.version} (+local emulator)`);
});
