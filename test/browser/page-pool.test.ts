// The browser files' pages kept between tests (test/helpers/page-pool.ts): a page given back comes
// back as a new tab would be. Its document has ended, its origin keeps nothing (local and session
// storage, IndexedDB, Cache Storage, cookies) but what the HTTP cache was let keep, the listeners a
// test set on it are gone, its script before the page's own runs once, and pages of other kinds, of a
// fake clock or closed are never handed out in its place. Debian's Chromium, on a page of a local origin.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, endAll } from '../helpers/end-all.js';
import { givePage, takePage } from '../helpers/page-pool.js';
import { CHROMIUM } from '../helpers/web-sdk.js';

/** What the origin's page finds kept, once its scripts have run. */
interface Found {
  /** The answer its script got: the server's count of requests for it (an answer from the HTTP cache repeats one). */
  served: number;
  local: string[];
  session: string[];
  databases: string[];
  caches: string[];
  cookie: string;
  /** How many times the script before the page's own ran in this document. */
  before: number;
}

const FIND = `(async () => ({
  served: await new Promise((resolve, reject) => {
    const script = Object.assign(document.createElement('script'), { src: '/cached.js' });
    script.onload = () => resolve(window.__served);
    script.onerror = reject;
    document.head.append(script);
  }),
  local: Object.keys(localStorage),
  session: Object.keys(sessionStorage),
  databases: (await indexedDB.databases()).map((d) => d.name),
  caches: await caches.keys(),
  cookie: document.cookie,
  before: window.__before ?? 0,
}))()`;

/** Keeps something in every kind of storage the origin has. */
const KEEP = `(async () => {
  localStorage.setItem('device', 'camera 1');
  sessionStorage.setItem('tab', 'one');
  document.cookie = 'visited=yes; max-age=3600';
  await caches.open('assets');
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('meetings', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('rooms');
    open.onsuccess = () => { open.result.close(); resolve(); };
    open.onerror = () => reject(open.error);
  });
})()`;

const BEFORE = 'window.__before = (window.__before ?? 0) + 1';

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('pages kept between tests', () => {
  let browser: Browser;
  let server: Server;
  let url: string;
  let served = 0;
  let documents = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      // A script the browser may keep for an hour: its answers count the requests that reached the server.
      if (req.url === '/cached.js')
        return res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'max-age=3600' }).end(`window.__served = ${++served}`);
      // A page that sets a cookie of its own from the server too.
      if (req.url === '/') documents++;
      res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'served=yes; Max-Age=3600' }).end('<!doctype html><title>origin</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(() =>
    endAll(
      () => browser?.close(),
      () => closeServer(server),
    ),
  );

  it('a page given back comes back for its kind on a fresh document, its origin emptied but for the HTTP cache, without the listeners set on it', async () => {
    const page = await takePage(browser, { initScript: BEFORE });
    const heard: string[] = [];
    page.on('console', (m) => heard.push(m.text()));
    await page.goto(url);
    await page.evaluate(KEEP);
    const kept = await page.evaluate<Found>(FIND);
    expect(kept).toMatchObject({ served: 1, local: ['device'], session: ['tab'], databases: ['meetings'], caches: ['assets'], before: 1 });
    // The script came from the browser's cache the second time.
    expect((await page.evaluate<Found>(FIND)).served).toBe(1);
    expect(kept.cookie.split('; ').sort()).toEqual(['served=yes', 'visited=yes']);
    // A cookie of another site, as an answer of the emulator's hosts might set.
    await page.context().addCookies([{ name: 'elsewhere', value: 'yes', domain: 'api.localhost', path: '/' }]);
    // The document lives on until it is given back: its timer keeps ticking.
    await page.evaluate(`window.__ticks = 0; setInterval(() => window.__ticks++, 10)`);

    await givePage(page);
    expect(page.url()).toBe('about:blank');
    expect(await page.evaluate('window.__ticks')).toBeUndefined();
    expect(await page.context().cookies()).toEqual([]);

    const again = await takePage(browser, { initScript: BEFORE });
    expect(again).toBe(page);
    // Only the server's cookie, set by this navigation's answer; the script before the page's own ran
    // once. The script its server let the browser keep for an hour comes from the HTTP cache, as in
    // another tab of the same browser; the document, which it did not let keep, was asked anew.
    await again.goto(url);
    expect(await again.evaluate<Found>(FIND)).toEqual({ served: 1, local: [], session: [], databases: [], caches: [], cookie: 'served=yes', before: 1 });
    expect(documents).toBe(2);
    await again.evaluate(`console.log('after')`);
    expect(heard).toEqual([]);
    await givePage(again);
  });

  it('hands out a page of the same viewport and script only; one given back twice waits once', async () => {
    const plain = await takePage(browser);
    const wide = await takePage(browser, { viewport: { width: 1280, height: 800 } });
    await givePage(plain);
    await givePage(plain);
    await givePage(wide);
    expect(await takePage(browser, { initScript: BEFORE })).not.toBe(plain);
    const narrow = await takePage(browser, { viewport: { width: 640, height: 480 } });
    expect([plain, wide]).not.toContain(narrow);
    expect(narrow.viewportSize()).toEqual({ width: 640, height: 480 });
    expect(await takePage(browser, { viewport: { width: 1280, height: 800 } })).toBe(wide);
    expect(await takePage(browser)).toBe(plain);
    // Given back twice, it was kept once: the next plain page is a new one.
    const next = await takePage(browser);
    expect([plain, wide]).not.toContain(next);
    for (const page of [plain, wide, narrow, next]) await givePage(page);
  });

  it('closes a page of a fake clock, and a page that is closed is never handed out', async () => {
    const clocked = await takePage(browser, { fakeClock: true });
    await givePage(clocked);
    expect(clocked.isClosed()).toBe(true);

    const plain = await takePage(browser);
    await givePage(plain);
    await plain.close();
    const next = await takePage(browser);
    expect(next).not.toBe(plain);
    expect(next.isClosed()).toBe(false);
    await givePage(next);
  });

  it('closes a page that was not made by takePage when it is given back', async () => {
    const own = await browser.newPage();
    await givePage(own);
    expect(own.isClosed()).toBe(true);
  });
});
