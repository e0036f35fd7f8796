// The dashboard's two figures, measured against a running emulator (in process, port 0):
//
// - first load, compressed: what a browser fetches to show /_emulator/ui — the page, its style,
//   its entry script and every chunk the entry imports statically — as the emulator sends it
//   with Brotli and with gzip (content-length of each answer). The HLS player's chunk is loaded
//   only when a livestream is played, and is reported apart. Goal: under 200 KB.
// - REST → dashboard: from a POST /v2/meetings to the meeting's row in an open dashboard
//   (Debian's Chromium, headless), median of 5. Goal: under 2 s. Skipped without Chromium.
//
//   npx tsx bench/dashboard.ts
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/index.js';
import { CHROMIUM } from '../test/helpers/web-sdk.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-ui.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
const emu = await startEmulator({ seed: 'bench-dashboard', clock: 'manual', logLevel: 'silent' });

async function size(url: string, encoding: string): Promise<{ bytes: number; text: string }> {
  const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const sent = Number(res.headers.get('content-length'));
  return { bytes: sent, text: await res.text() };
}

/** The first load's files: the page, what it links, and the static imports of the scripts, transitively. */
async function firstLoad(encoding: string): Promise<{ total: number; files: Array<[string, number]>; lazy: Array<[string, number]> }> {
  const base = `${emu.url}/_emulator/ui`;
  const page = await size(base, encoding);
  const files: Array<[string, number]> = [['index.html', page.bytes]];
  const queue = [...page.text.matchAll(/(?:href|src)="(\/_emulator\/ui\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const seen = new Set(queue);
  const lazy = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    const { bytes, text } = await size(`${emu.url}${file}`, encoding);
    files.push([path.basename(file), bytes]);
    for (const m of text.matchAll(/(?:^|[;}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?"\.\/([\w.-]+\.js)"/g)) {
      const next = `/_emulator/ui/assets/${m[1]!}`;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
    for (const m of text.matchAll(/import\("\.\/([\w.-]+\.js)"\)/g)) lazy.add(m[1]!);
  }
  const lazySizes: Array<[string, number]> = [];
  for (const name of lazy)
    if (!seen.has(`/_emulator/ui/assets/${name}`)) lazySizes.push([name, (await size(`${emu.url}/_emulator/ui/assets/${name}`, encoding)).bytes]);
  return { total: files.reduce((sum, [, b]) => sum + b, 0), files, lazy: lazySizes };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
try {
  for (const encoding of ['br', 'gzip', 'identity']) {
    const { total, files, lazy } = await firstLoad(encoding);
    console.log(`first load (${encoding}): ${kb(total)} — ${files.map(([f, b]) => `${f} ${kb(b)}`).join(', ')}`);
    if (lazy.length > 0) console.log(`  on demand (${encoding}): ${lazy.map(([f, b]) => `${f} ${kb(b)}`).join(', ')}`);
  }

  if (!existsSync(CHROMIUM)) {
    console.log('REST → dashboard: skipped (no /usr/bin/chromium)');
  } else {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${emu.url}/_emulator/ui`);
      await page.getByText('live', { exact: true }).waitFor({ timeout: 30_000 });
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const res = await fetch(`${emu.url}/v2/meetings`, {
          method: 'POST',
          headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `bench ${i}` }),
        });
        const { data } = (await res.json()) as { data: { id: string } };
        await page.locator(`[data-meeting-id="${data.id}"]`).waitFor({ timeout: 30_000 });
        samples.push(performance.now() - started);
      }
      samples.sort((a, b) => a - b);
      console.log(`REST → dashboard (median of 5): ${Math.round(samples[2]!)} ms (min ${Math.round(samples[0]!)}, max ${Math.round(samples[4]!)})`);
    } finally {
      await browser.close();
    }
  }
} finally {
  await emu.close();
}
