// The service's UI kits on top of its web SDKs, for the browser tests and probes: a frontend's
// origin serving a page with the SDK's browser bundle and the kit's Stencil loader (whose other
// chunks load from the same folder), a function that opens the kit's meeting component on it, and a
// screenshot taken once the screen shows what the DOM holds.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { greyPixels } from './media-probe.js';
import { takePage } from './page-pool.js';
import { PACKAGE_FILE_CACHING, SDKS, collectPageErrors, readUntil, watchCallStats, type Sdk } from './web-sdk.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The UI kits: the SDK each sits on, the kit's Stencil build folder and loader, and its meeting element. */
export const KITS = [
  {
    name: '@dytesdk/ui-kit',
    sdk: SDKS[0],
    dist: 'node_modules/@dytesdk/ui-kit/dist/dyte-ui-kit',
    loader: 'dyte-ui-kit.esm.js',
    element: 'dyte-meeting',
    prefix: 'dyte',
  },
  {
    name: '@cloudflare/realtimekit-ui',
    sdk: SDKS[1],
    dist: 'node_modules/@cloudflare/realtimekit-ui/dist/realtimekit-ui',
    loader: 'realtimekit-ui.esm.js',
    element: 'rtk-meeting',
    prefix: 'rtk',
  },
] as const satisfies readonly { name: string; sdk: Sdk; dist: string; loader: string; element: string; prefix: string }[];
export type Kit = (typeof KITS)[number];

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

/**
 * A frontend's origin (http://127.0.0.1:<port>/): `/` is a page with the SDK's bundle (`/sdk.js`),
 * the kit's loader (`/kit/<loader>`, its chunks under `/kit/`) and an empty meeting element
 * (`#meeting`) filling the window. `style` adds page CSS: a rule that sets the element's `display`
 * overrides the kit's own `:host` (flex, column), and its stage then has no height, nor any tile.
 */
export async function serveKitPage(kit: Kit, options: { style?: string } = {}): Promise<{ url: string; server: Server }> {
  const sdk = await readFile(path.join(ROOT, kit.sdk.bundle));
  const dist = path.join(ROOT, kit.dist);
  const page = [
    '<!doctype html><html><head><meta charset="utf-8">',
    // The element lays itself out (fixed, filling the window); a page style on it would override its own.
    `<style>html,body{margin:0;height:100%}${options.style ?? ''}</style>`,
    '<script src="/sdk.js"></script>',
    `<script type="module" src="/kit/${kit.loader}"></script>`,
    `</head><body><${kit.element} id="meeting"></${kit.element}></body></html>`,
  ].join('');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript', ...PACKAGE_FILE_CACHING }).end(sdk);
    if (url.pathname.startsWith('/kit/')) {
      const file = path.join(dist, path.normalize(decodeURIComponent(url.pathname.slice('/kit/'.length))));
      if (!file.startsWith(dist + path.sep)) return res.writeHead(404).end();
      readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', ...PACKAGE_FILE_CACHING }).end(body),
        () => res.writeHead(404).end(),
      );
      return;
    }
    if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** What the page's scripts use of the browser's globals (the test program has no DOM types). */
interface PageGlobals {
  customElements: { get(name: string): unknown };
  document: { getElementById(id: string): { showSetupScreen: boolean; meeting: unknown } };
  meeting: unknown;
  [global: string]: unknown;
}

/** Requests the kits make to the internet (fonts, sounds, images) that failed, as the browser of launchTrusting resolves no such name: recorded. */
export interface Offline {
  blocked: string[];
}

/** What each page of openKit threw and had blocked, for what showsMeeting says when the kit does not get going. */
const kitPages = new WeakMap<Page, { offline: Offline; errors: string[] }>();

/**
 * Opens the kit's page in a tab of a browser of launchTrusting (a new tab, or one an earlier test gave
 * back: page-pool.ts), offline but for this machine (the page's origin, the emulator's TLS hosts
 * `*.localhost` and its plain port on 127.0.0.1, where a livestream's playback URL points), then
 * init()s the SDK with the token and hands the meeting to the kit's element (`showSetupScreen` chooses
 * the setup screen; without it the kit joins by itself). The page's global `meeting` is the SDK's
 * meeting: after a breakout move, the one the page moved to.
 */
export async function openKit(
  browser: Browser,
  kit: Kit,
  pageUrl: string,
  options: {
    token: string;
    base: string;
    showSetupScreen: boolean;
    viewport?: { width: number; height: number };
    /** The SDK's `defaults`: the camera and microphone at init() (both off unless asked). */
    media?: { audio: boolean; video: boolean };
    /** The page's timers on Playwright's clock, installed before it loads (a test may skip an SDK's waits). */
    fakeClock?: boolean;
  },
): Promise<{ page: Page; offline: Offline; errors: string[] }> {
  const page = await takePage(browser, { viewport: options.viewport ?? { width: 1280, height: 800 }, fakeClock: options.fakeClock });
  const offline: Offline = { blocked: [] };
  const errors: string[] = [];
  collectPageErrors(page, '', errors);
  watchCallStats(page);
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText === 'net::ERR_NAME_NOT_RESOLVED') offline.blocked.push(request.url());
  });
  await page.goto(pageUrl);
  await page.waitForFunction((element) => (globalThis as unknown as PageGlobals).customElements.get(element) !== undefined, kit.element, {
    timeout: 30_000,
  });
  await page.evaluate(
    async ({ token, base, global, showSetupScreen, media }) => {
      const w = globalThis as unknown as PageGlobals;
      const client = w[global] as { init(options: unknown): Promise<unknown> };
      const meeting = await client.init({ authToken: token, baseURI: base, defaults: media });
      w.meeting = meeting;
      const el = w.document.getElementById('meeting');
      el.showSetupScreen = showSetupScreen;
      el.meeting = meeting;
    },
    {
      token: options.token,
      base: options.base,
      global: kit.sdk.global,
      showSetupScreen: options.showSetupScreen,
      media: options.media ?? { audio: false, video: false },
    },
  );
  // As the kits' documentation asks of an app: when the SDK moves the page to another meeting (a
  // breakout room, the parent), it hands over a new meeting in `meetingChanged`, and the page gives it
  // to the kit's element (the kit does not follow by itself). A string: no helper names injected.
  await page.evaluate(`(() => {
    const el = document.getElementById('meeting');
    window.followMeeting = (m) => m.connectedMeetings.on('meetingChanged', (next) => {
      window.meeting = next;
      el.meeting = next;
      window.followMeeting(next);
    });
    window.followMeeting(window.meeting);
  })()`);
  kitPages.set(page, { offline, errors });
  return { page, offline, errors };
}

/**
 * Waits until the kit in a page of openKit shows the meeting (its control bar). When it
 * does not within `timeoutMs`, the error says what the page got to: the SDK's room state, what the
 * page threw, the requests it had blocked and the parts the kit's element shows.
 */
export async function showsMeeting(page: Page, kit: Kit, timeoutMs: number): Promise<void> {
  try {
    await page.locator(`${kit.prefix}-controlbar`).first().waitFor({ state: 'visible', timeout: timeoutMs });
  } catch (e) {
    const seen = await page
      .evaluate(
        `(() => ({
        roomState: window.meeting && window.meeting.self ? window.meeting.self.roomState : 'no meeting',
        shown: (() => {
          const el = document.getElementById('meeting');
          return [...((el && el.shadowRoot) || el || document.body).children].map((c) => c.tagName.toLowerCase());
        })(),
      }))()`,
      )
      .catch((err: unknown) => ({ unreadable: String(err) }));
    const { offline, errors } = kitPages.get(page) ?? { offline: { blocked: [] }, errors: [] };
    throw new Error(
      `the ${kit.prefix} kit never showed its control bar: ${JSON.stringify(seen)}; page errors ${JSON.stringify(errors)}; blocked ${JSON.stringify([...new Set(offline.blocked)])}`,
      { cause: e },
    );
  }
}

/** A rectangle of the page, in CSS pixels (a locator's boundingBox). */
export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The kits draw on near-black (#141414 and the like); a box whose mean brightness passes this shows a picture. */
const PICTURE_BRIGHTNESS = 50;

/**
 * The page's screenshot, taken again until there are boxes and each shows a picture in it (its mean
 * brightness well above the kit's near-black background) or `waitMs` have passed. The DOM can hold a
 * grid whose videos play before the screen shows it: on a loaded machine a kit's screenshot came out
 * as an empty grid under its header and control bar, with every tile in the DOM at its size, visible
 * and playing. What a person sees is the screen, so a test that says tiles show waits for it there.
 * `boxes` is read again for each screenshot (a grid may still move its tiles). Answers the last
 * screenshot (PNG, one pixel per CSS pixel), whether it shows every box's picture, the brightness of
 * each box in it (0–255), and how many screenshots were taken.
 */
export async function screenshotShowing(
  page: Page,
  boxes: () => Promise<readonly ScreenBox[]>,
  waitMs: number,
): Promise<{ png: Buffer; shows: boolean; brightness: number[]; shots: number }> {
  let shots = 0;
  const last = await readUntil(
    async () => {
      shots++;
      const places = await boxes();
      const png = await page.screenshot({ scale: 'css' });
      const brightness = await meanBrightness(png, places);
      return { png, brightness, shows: brightness.length > 0 && brightness.every((b) => b > PICTURE_BRIGHTNESS) };
    },
    (shot) => shot.shows,
    waitMs,
    200,
  );
  return { ...last, shots };
}

/** The mean brightness (grey, 0–255) of each box of a PNG at one pixel per CSS pixel. */
async function meanBrightness(png: Buffer, boxes: readonly ScreenBox[]): Promise<number[]> {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const grey = await greyPixels(png);
  if (grey.length !== width * height) throw new Error(`ffmpeg decoded ${grey.length} bytes of a ${width} × ${height} screenshot`);
  return boxes.map((box) => {
    const [x0, y0] = [Math.max(0, Math.round(box.x)), Math.max(0, Math.round(box.y))];
    const [x1, y1] = [Math.min(width, Math.round(box.x + box.width)), Math.min(height, Math.round(box.y + box.height))];
    let sum = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += grey[y * width + x]!;
    const area = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
    return area === 0 ? 0 : sum / area;
  });
}
