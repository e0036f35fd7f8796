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
