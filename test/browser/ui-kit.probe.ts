// A probe, not a test: opens each UI kit on the emulator and takes screenshots to /tmp/uikit-*.png
// for a person to look at, printing what the SDK holds beside them.
//   nice -n 10 npx tsx test/browser/ui-kit.probe.ts [kit-prefix ...] [--only=grid,setup,panels,leave,kick,kickall]
import type { Page } from 'playwright-core';
import { startEmulator } from '../../src/index.js';
import { KITS, openKit, serveKitPage, type Kit } from '../helpers/ui-kit.js';
import { launchTrusting } from '../helpers/web-sdk.js';

const args = process.argv.slice(2);
const only = (args.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? 'grid,setup,panels,leave,kick,kickall').split(',');
const kits = KITS.filter(
  (k) => args.filter((a) => !a.startsWith('--')).every((a) => a === k.prefix) || args.filter((a) => !a.startsWith('--')).includes(k.prefix),
);

const emu = await startEmulator({ clock: 'real', tlsPort: 0, ...(process.env.LOG_LEVEL ? { logLevel: process.env.LOG_LEVEL as 'info' } : {}) });
const base = new URL(emu.tlsUrl!).host;
const browser = await launchTrusting(emu.url);

async function rest<T>(method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emu.url}${route}`, {
    method,
    headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}
const control = (route: string, body?: unknown) =>
  fetch(`${emu.url}/_emulator${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A meeting with Ada (for the page), and Bob and Carl joined by script; Bob says hello. */
async function room(title: string) {
  const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title });
  const mk = (name: string) =>
    rest<{ id: string; token: string }>('POST', `/v2/meetings/${meeting.id}/participants`, {
      name,
      preset_name: 'group_call_host',
      custom_participant_id: name.toLowerCase(),
    });
  const [ada, bob, carl] = [await mk('Ada'), await mk('Bob'), await mk('Carl')];
  await control(`/meetings/${meeting.id}/participants/${bob.id}/join`);
  await control(`/meetings/${meeting.id}/participants/${carl.id}/join`);
  await control(`/meetings/${meeting.id}/participants/${bob.id}/chat`, { message: 'Hello from Bob' });
  return { meeting, ada, bob, carl };
}

/** What the SDK holds, beside the screenshot. */
function state(page: Page) {
  return page.evaluate(() => {
    const m = (globalThis as unknown as { meeting: Record<string, any> }).meeting; // eslint-disable-line @typescript-eslint/no-explicit-any
    return {
      roomState: m.self.roomState,
      selfStage: m.self.stageStatus,
      stage: m.stage?.status,
      joined: m.participants.joined.toArray().map((x: { name: string }) => x.name),
      active: m.participants.active.toArray().map((x: { name: string }) => x.name),
      maxActive: m.participants.maxActiveParticipantsCount,
      viewMode: m.participants.viewMode,
      startedTs: String(m.meta.meetingStartedTimestamp),
      chat: m.chat.messages.length,
      polls: m.polls.items.length,
    };
  });
}

async function shot(page: Page, name: string) {
  const file = `/tmp/uikit-${name}.png`;
  await page.screenshot({ path: file });
  console.log(file, JSON.stringify(await state(page).catch((e: Error) => e.message)));
}

async function run(kit: Kit) {
  // --block: the page's CSS sets the element's display, as a page may (the grid then has no height).
  const { url, server } = await serveKitPage(kit, args.includes('--block') ? { style: '#meeting{display:block;width:100vw;height:100vh}' } : {});
  const p = kit.prefix;
  try {
    if (only.includes('grid') || only.includes('panels')) {
      const { meeting, ada } = await room(`${p} grid`);
      const { page, offline, errors } = await openKit(browser, kit, url, { token: ada.token, base, showSetupScreen: false });
      await page.waitForTimeout(8_000);
      await shot(page, `${p}-grid${args.includes('--block') ? '-block' : ''}`);
      // One more joins after the page: a tile appears.
      const dave = await rest<{ id: string }>('POST', `/v2/meetings/${meeting.id}/participants`, {
        name: 'Dave',
        preset_name: 'group_call_host',
        custom_participant_id: 'dave',
      });
      await control(`/meetings/${meeting.id}/participants/${dave.id}/join`);
      await page.waitForTimeout(3_000);
      await shot(page, `${p}-grid-late${args.includes('--block') ? '-block' : ''}`);
      if (only.includes('panels')) {
        await rest('POST', `/v2/meetings/${meeting.id}/active-session/poll`, { question: 'Lunch?', options: ['Yes', 'No'] });
        for (const panel of ['participants', 'chat', 'polls']) {
          const toggle = page.locator(`${p}-${panel}-toggle`).first();
          if ((await toggle.count()) === 0 || !(await toggle.isVisible())) {
            // The toggle may be in the control bar's "more" menu: open the sidebar through the kit's own state event.
            await page.evaluate(
              ({ prefix, panel }) => {
                const el = (globalThis as unknown as { document: { getElementById(id: string): { dispatchEvent(e: unknown): void } } }).document.getElementById(
                  'meeting',
                );
                const Ev = (globalThis as unknown as { CustomEvent: new (t: string, o: unknown) => unknown }).CustomEvent;
                el.dispatchEvent(new Ev(`${prefix}StateUpdate`, { detail: { activeSidebar: true, sidebar: panel }, bubbles: true, composed: true }));
              },
              { prefix: p, panel },
            );
          } else await toggle.click();
          await page.waitForTimeout(2_000);
          await shot(page, `${p}-panel-${panel}`);
          if ((await toggle.count()) > 0 && (await toggle.isVisible())) await toggle.click();
        }
      }
      console.log(p, 'blocked:', [...new Set(offline.blocked)], 'errors:', errors);
      await page.close();
    }
    if (only.includes('setup')) {
      const { ada } = await room(`${p} setup`);
      const { page, offline } = await openKit(browser, kit, url, { token: ada.token, base, showSetupScreen: true });
      await page.waitForTimeout(6_000);
      await shot(page, `${p}-setup`);
      const join = page.locator(`${p}-setup-screen ${p}-button`).filter({ hasText: /join/i }).first();
      if ((await join.count()) > 0) {
        await join.click();
        await page.waitForTimeout(6_000);
        await shot(page, `${p}-setup-joined`);
      } else console.log(p, 'no join button found on the setup screen');
      console.log(p, 'setup blocked:', [...new Set(offline.blocked)]);
      await page.close();
    }
    for (const how of ['leave', 'kick', 'kickall'] as const) {
      if (!only.includes(how)) continue;
      const { meeting, ada } = await room(`${p} ${how}`);
      const { page } = await openKit(browser, kit, url, { token: ada.token, base, showSetupScreen: false });
      await page.waitForTimeout(5_000);
      if (how === 'leave') await page.evaluate(() => (globalThis as unknown as { meeting: { leave(): Promise<void> } }).meeting.leave());
      if (how === 'kick') await rest('POST', `/v2/meetings/${meeting.id}/active-session/kick`, { participant_ids: [ada.id] });
      if (how === 'kickall') await rest('POST', `/v2/meetings/${meeting.id}/active-session/kick-all`);
      await page.waitForTimeout(5_000);
      await shot(page, `${p}-${how}`);
      await page.close();
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

try {
  for (const kit of kits) await run(kit);
} finally {
  await browser.close();
  await emu.close();
}
