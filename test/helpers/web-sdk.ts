// What the browser test and the benchmark of the web SDKs share: the two SDKs, a frontend's own
// origin serving a page and the SDK's browser bundle, and a Chromium that trusts exactly the
// emulator's certificate (by its public key), as a throwaway profile would.
import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { expect } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = '/usr/bin/chromium';

/** The service's web SDKs: their browser bundles and the global each defines. */
export const SDKS = [
  { name: '@dytesdk/web-core', bundle: 'node_modules/@dytesdk/web-core/dist/index.iife.js', global: 'DyteClient' },
  { name: '@cloudflare/realtimekit', bundle: 'node_modules/@cloudflare/realtimekit/dist/browser.js', global: 'RealtimeKitClient' },
] as const;
export type Sdk = (typeof SDKS)[number];

/** A frontend's origin (http://127.0.0.1:<port>/): an empty page that loads the SDK's bundle from /sdk.js. */
export async function servePages(sdk: Sdk): Promise<{ url: string; server: Server }> {
  const script = readFileSync(path.join(ROOT, sdk.bundle));
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><head><script src="/sdk.js"></script></head><body></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/**
 * Debian's Chromium, headless, trusting the certificate the emulator at `emulatorUrl` serves (and no
 * other), with fake devices so that a page may ask for a camera and microphone.
 */
export async function launchTrusting(emulatorUrl: string): Promise<Browser> {
  const pem = await (await fetch(`${emulatorUrl}/_emulator/tls/certificate`)).text();
  const spki = createHash('sha256')
    .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }))
    .digest('base64');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', `--ignore-certificate-errors-spki-list=${spki}`, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
}

/**
 * The emulator's API as a page's backend calls it (the org's own credentials): the `data` of a 2xx
 * answer, or the test fails naming the call.
 */
export function restOf(emu: { url: string; authHeader: string }) {
  return async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${emu.url}${route}`, {
      method,
      headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${route}`).toBeLessThan(300);
    return ((await res.json()) as { data: T }).data;
  };
}

/** A participant the tests add to a meeting: who a page joins as. */
export interface Person {
  id: string;
  token: string;
  name: string;
}

/** Adds a participant to a meeting (the host preset unless another is named; the custom id is the lower-case name). */
export async function addPerson(emu: { url: string; authHeader: string }, meetingId: string, name: string, preset = 'group_call_host'): Promise<Person> {
  const p = await restOf(emu)<{ id: string; token: string }>('POST', `/v2/meetings/${meetingId}/participants`, {
    name,
    preset_name: preset,
    custom_participant_id: name.toLowerCase(),
  });
  return { ...p, name };
}

/**
 * A preset of the organization made from another one (its whole document), under a new name, with
 * some permissions changed: `{ waiting_room_type: 'SKIP_ON_ACCEPT' }` for a guest who waits.
 */
export async function addPreset(emu: { url: string; authHeader: string }, name: string, from: string, permissions: Record<string, unknown>): Promise<void> {
  const rest = restOf(emu);
  const list = await rest<{ id: string; name: string }[]>('GET', '/v2/presets?per_page=100');
  const base = await rest<{ config: unknown; permissions: Record<string, unknown>; ui: unknown }>(
    'GET',
    `/v2/presets/${list.find((p) => p.name === from)!.id}`,
  );
  await rest('POST', '/v2/presets', { name, config: base.config, ui: base.ui, permissions: { ...base.permissions, ...permissions } });
}
