// The dashboard in a real browser: Debian's Chromium, headless, driven by playwright-core
// against a listening emulator (127.0.0.1, port 0, manual clock). What a person would do: watch
// a meeting made through the REST API appear, drive a recording from the buttons to UPLOADED and
// play it, look at its webhook delivery and redeliver it, play a LIVE livestream and stop it, let in or turn
// away who waits in a waiting room, see who stands on a webinar's stage, read a session's polls
// and chat (its images shown), follow a page's network trouble on the timeline, see where
// recordings went in the app's own storage, have a participant say a line. Along the way:
// no console error, and no request leaves the emulator's origin. Screenshots of the main views
// go to docs/images/, where docs/dashboard.md shows them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { decode } from '../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../src/realtime/protocol/events.js';
import { endAll } from '../helpers/end-all.js';
import { Receiver } from '../helpers/webhook-receiver.js';
import { PageSockets } from '../helpers/sdk-socket.js';
import { S3_ACCESS_KEY, S3_SECRET, startS3, type S3Server } from '../helpers/storage-servers.js';
import { CHROMIUM, addPerson, addPreset, restOf } from '../helpers/web-sdk.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const IMAGES = path.join(ROOT, 'docs', 'images');
/** A 16×16 PNG, a square of one colour: what a scripted participant sends as a chat image. */
const SQUARE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGM4kSJHEmIY1TCqYfhqAAAatkoQQKS4EAAAAABJRU5ErkJggg==';
/** Generous: a shared CI machine can be slow; the 2 s goal is measured by bench/, not here. */
const WAIT = { timeout: 15_000 };

let emu: RunningEmulator;
let receiver: Receiver;
/** An S3-compatible server the emulator uploads recordings to (the storage tests' own). */
let s3: S3Server;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
const offOrigin: string[] = [];
let meetingId: string;

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(IMAGES, `${name}.png`), fullPage: true });
}

/** What the test reads of a <video> (the test program has no DOM types). */
interface MediaElement {
  readyState: number;
  addEventListener(type: 'canplay', listener: () => void, options: { once: boolean }): void;
}

/** Resolves once the <video> can play: `canplay` fired, or had already. */
function canPlay(selector: string): Promise<unknown> {
  return page
    .locator(selector)
    .evaluate(
      (v: MediaElement) => v.readyState >= 3 || new Promise<boolean>((resolve) => v.addEventListener('canplay', () => resolve(true), { once: true })),
      undefined,
      WAIT,
    );
}

// Skipped on a machine without Chromium, except in CI (.ci/run installs it there).
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the dashboard in Chromium', () => {
  beforeAll(async () => {
    // The dashboard is served from its build (dist/ui), which the run's global setup brought up to date.
    receiver = await Receiver.start();
    s3 = await startS3(['recordings']);
    emu = await startEmulator({ seed: 'dashboard', clock: 'manual', logLevel: 'silent', storageEndpoints: { aws: s3.url } });
    await rest('POST', '/v2/webhooks', { name: 'demo receiver', url: receiver.url(), events: ['recording.statusUpdate', 'meeting.started'] });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const origin = new URL(emu.url).origin;
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      offOrigin.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.on('console', (m) => {
      // With the resource's address: Chromium's message for a failed load does not name it.
      if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url || 'no address'})`);
    });
    page.on('pageerror', (err) => consoleErrors.push(String(err)));
    await page.goto(`${emu.url}/_emulator/ui`);
  }, 120_000);

  afterAll(() =>
    endAll(
      () => browser?.close(),
      () => emu?.close(),
      () => receiver?.close(),
      () => s3?.close(),
    ),
  );

  it('shows a meeting created through the REST API without a reload', async () => {
    await page.getByText('live', { exact: true }).waitFor(WAIT);
    const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Made over REST' });
    meetingId = meeting.id;
    await page.locator(`[data-meeting-id="${meeting.id}"]`).waitFor(WAIT);
    await expect(page.locator(`[data-meeting-id="${meeting.id}"]`).textContent()).resolves.toContain('Made over REST');
  }, 60_000);

  it('drives a recording from the buttons to UPLOADED, plays it, and shows and redelivers its webhook', async () => {
    await page.locator(`[data-meeting-id="${meetingId}"]`).getByRole('button', { name: 'Open meeting Made over REST' }).click();
    const detail = page.getByTestId('meeting-detail');
    await detail.waitFor(WAIT);
    await detail.getByLabel('Name').fill('Ada');
    await detail.getByRole('button', { name: 'Add participant' }).click();
    await detail.getByRole('button', { name: 'Join' }).click();
    await detail.getByText(/^since /).waitFor(WAIT);
    // The join opened a session: the meeting's sessions list it, still running, with its one participant.
    const session = detail.locator('[data-testid="sessions"] tbody tr');
    await session.filter({ hasText: 'running' }).waitFor(WAIT);
    await expect(session.count()).resolves.toBe(1);
    await expect(session.first().locator('td').nth(4).textContent()).resolves.toBe('1');
    // Ada publishes the sample clip (a bot's camera and microphone), then stops it.
    await detail.getByRole('button', { name: 'Publish the sample clip as Ada' }).click();
    await detail.getByRole('button', { name: 'Stop the sample clip of Ada' }).waitFor(WAIT);
    await expect
      .poll(async () => ((await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { producers: number } }).media.producers, WAIT)
      .toBe(2);
    await detail.getByRole('button', { name: 'Stop the sample clip of Ada' }).click();
    await detail.getByRole('button', { name: 'Publish the sample clip as Ada' }).waitFor(WAIT);
    await detail.getByRole('button', { name: 'Start recording' }).click();
    const status = detail.getByTestId('recording-status');
    await status.waitFor(WAIT);
    await page.getByRole('button', { name: 'Advance the clock 10 s' }).click();
    await detail.getByTestId('recording-status').filter({ hasText: 'RECORDING' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Advance the clock 1 min' }).click();
    await page.getByTestId('clock-now').filter({ hasText: '00:01:10' }).waitFor(WAIT);
    await detail.getByRole('button', { name: 'Stop recording' }).click();
    await detail.getByTestId('recording-status').filter({ hasText: 'UPLOADING' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Advance the clock 10 min' }).click();
    await detail.getByTestId('recording-status').filter({ hasText: 'UPLOADED' }).waitFor(WAIT);
    await canPlay('[data-testid="recording-player"]');
    await detail.getByTestId('timeline').waitFor(WAIT);
    await shot('dashboard-meeting');

    await page.getByRole('button', { name: 'Webhook deliveries' }).click();
    // meeting.started, then INVOKED, RECORDING, UPLOADING and UPLOADED: the newest delivery is the UPLOADED one.
    await receiver.waitFor(5);
    const row = page.locator('[data-testid="deliveries"] tbody tr').filter({ hasText: 'recording.statusUpdate' }).first();
    await row.getByRole('button').click();
    const attempts = page.locator('[data-testid="attempts"] tbody tr');
    await attempts.first().waitFor(WAIT);
    await expect(attempts.count()).resolves.toBe(1);
    await page.getByTestId('signature-verdict').filter({ hasText: 'verifies with the published key' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await attempts.nth(1).waitFor(WAIT);
    await expect(attempts.nth(1).textContent()).resolves.toContain('redeliver');
    await shot('dashboard-delivery');

    // A request under the RealtimeKit prefix: the journal names its account and app.
    const account = '00000000000000000000000000000001';
    const kit = await fetch(`${emu.url}/client/v4/accounts/${account}/realtime/kit/${emu.orgId}/meetings`, {
      headers: { authorization: 'Bearer emulator-api-key' },
    });
    expect(kit.status).toBe(200);
    await page.getByRole('button', { name: 'Request journal' }).click();
    await page.getByTestId('journal').waitFor(WAIT);
    await page
      .getByTestId('journal-account')
      .filter({ hasText: `account ${account} · app ${emu.orgId}` })
      .waitFor(WAIT);
    await shot('dashboard-journal');
  }, 90_000);

  it('plays a LIVE livestream in the HLS player, and stops it with its button', async () => {
    await page.getByRole('button', { name: 'Meetings' }).click();
    const detail = page.getByTestId('meeting-detail');
    await detail.getByRole('button', { name: 'Create livestream' }).click();
    await detail.getByTestId('livestream-status').waitFor(WAIT);
    await page.getByRole('button', { name: 'Advance the clock 10 s' }).click();
    await detail.getByTestId('livestream-status').filter({ hasText: 'LIVE' }).waitFor(WAIT);
    await canPlay('[data-testid="livestream-player"]');

    const card = detail.locator('[data-livestream-id]');
    await expect(card.count()).resolves.toBe(1);
    const id = (await card.getAttribute('data-livestream-id'))!;
    // The player goes as the button is clicked, while the stop is still unanswered: it asks for no
    // more of a playlist that is about to go (each such request would be a failed load in the console).
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    let sent: Promise<void> | undefined;
    await page.route('**/active-livestream/stop', (route) => (sent = held.then(() => route.continue())));
    await card.getByRole('button', { name: 'Stop livestream' }).click();
    await card.getByTestId('livestream-player').waitFor({ ...WAIT, state: 'detached' });
    await expect(card.getByTestId('livestream-status').textContent()).resolves.toBe('LIVE');
    answer();
    await sent;
    await page.unroute('**/active-livestream/stop');
    // The API says it stopped; the view shows it so, without its Stop button and its player.
    await card.getByTestId('livestream-status').filter({ hasText: 'OFFLINE' }).waitFor(WAIT);
    await expect(rest<{ livestream: { status: string } }>('GET', `/v2/livestreams/${id}`)).resolves.toMatchObject({ livestream: { id, status: 'OFFLINE' } });
    await expect(card.getByRole('button', { name: 'Stop livestream' }).count()).resolves.toBe(0);
    await expect(card.getByTestId('livestream-player').count()).resolves.toBe(0);

    // Another one goes LIVE, so that the views after this one show a livestream playing.
    await detail.getByRole('button', { name: 'Create livestream' }).click();
    const next = detail.locator(`[data-livestream-id]:not([data-livestream-id="${id}"])`);
    await next.getByTestId('livestream-status').waitFor(WAIT);
    await page.getByRole('button', { name: 'Advance the clock 10 s' }).click();
    await next.getByTestId('livestream-status').filter({ hasText: 'LIVE' }).waitFor(WAIT);
    await canPlay('[data-testid="livestream-player"]');
  }, 60_000);

  it('shows the emulator controls, in dark mode too', async () => {
    await page.getByRole('button', { name: 'Emulator' }).click();
    await page.getByRole('heading', { name: 'Simulator policy' }).waitFor(WAIT);
    await page.getByLabel('start delay ms').waitFor(WAIT);
    await shot('dashboard-controls');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Meetings' }).click();
    await page.getByTestId('timeline').waitFor(WAIT);
    await shot('dashboard-dark');
  }, 60_000);

  it('lists who waits in a waiting room, and admits or rejects them with its buttons', async () => {
    await addPreset(emu, 'guest', 'group_call_participant', { waiting_room_type: 'SKIP_ON_ACCEPT' });
    const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Clinic', waiting_room: true });
    const [gus, lee] = [await addPerson(emu, meeting.id, 'Gus', 'guest'), await addPerson(emu, meeting.id, 'Lee', 'guest')];
    for (const p of [gus, lee])
      expect((await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${p.id}/join`, { method: 'POST' })).status).toBe(202);
    await page.getByRole('button', { name: 'Meetings' }).click();
    await page.locator(`[data-meeting-id="${meeting.id}"]`).getByRole('button', { name: 'Open meeting Clinic' }).click();
    const waiting = page.getByTestId('waiting-room');
    await waiting.getByText('Lee').waitFor(WAIT);
    await expect(waiting.locator('tbody tr').count()).resolves.toBe(2);

    await waiting.getByRole('button', { name: 'Admit Gus' }).click();
    const detail = page.getByTestId('meeting-detail');
    await detail.getByText(/^since /).waitFor(WAIT);
    await expect.poll(() => waiting.locator('tbody tr').count(), WAIT).toBe(1);
    await waiting.getByRole('button', { name: 'Reject Lee' }).click();
    await detail.getByText('Nobody waits.', { exact: false }).waitFor(WAIT);
    const presence = (await (await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/presence`)).json()) as { participants: { name: string }[] };
    expect(presence.participants.map((p) => p.name)).toEqual(['Gus']);
  }, 60_000);

  it("shows who stands on a webinar's stage, as it changes", async () => {
    const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Webinar' });
    const [hana, vic] = [await addPerson(emu, meeting.id, 'Hana', 'webinar_presenter'), await addPerson(emu, meeting.id, 'Vic', 'webinar_viewer')];
    for (const p of [hana, vic]) await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${p.id}/join`, { method: 'POST' });
    await page.locator(`[data-meeting-id="${meeting.id}"]`).getByRole('button', { name: 'Open meeting Webinar' }).click();
    const row = (name: string) => page.getByTestId('meeting-detail').locator('tr', { hasText: name }).getByTestId('stage');
    await row('Hana').filter({ hasText: 'on stage' }).waitFor(WAIT);
    await row('Vic').filter({ hasText: 'off stage' }).waitFor(WAIT);
    await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${hana.id}/stage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'leave' }),
    });
    await row('Hana').filter({ hasText: 'off stage' }).waitFor(WAIT);
  }, 60_000);

  it("shows the session's polls with their votes, and its chat: private messages, an image, a file", async () => {
    const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Retro' });
    const [ada, bob] = [await addPerson(emu, meeting.id, 'Ada', 'group_call_host'), await addPerson(emu, meeting.id, 'Bob')];
    const control = async (route: string, init: { body: string | Buffer; type: string }) => {
      const res = await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${route}`, {
        method: 'POST',
        headers: { 'content-type': init.type },
        body: init.body,
      });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const json = (value: unknown) => ({ body: JSON.stringify(value), type: 'application/json' });
    for (const p of [ada, bob]) await control(`${p.id}/join`, json({}));
    const { poll } = await rest<{ poll: { id: string } }>('POST', `/v2/meetings/${meeting.id}/active-session/poll`, {
      question: 'Next retro format?',
      options: ['Start/stop/continue', 'Sailboat'],
    });
    await control(`${ada.id}/polls/${poll.id}/vote`, json({ option: 1 }));
    await control(`${bob.id}/polls/${poll.id}/vote`, json({ option: 1 }));
    await control(`${ada.id}/chat`, json({ message: 'Welcome to the retro' }));
    await control(`${bob.id}/chat`, json({ message: 'Can we keep it short?', to: [ada.id] }));
    await control(`${ada.id}/chat/file?name=board.png`, { body: Buffer.from(SQUARE_PNG, 'base64'), type: 'image/png' });
    await control(`${ada.id}/chat/file?name=notes.txt`, { body: 'action items', type: 'text/plain' });

    await page.getByRole('button', { name: 'Meetings' }).click();
    await page.locator(`[data-meeting-id="${meeting.id}"]`).getByRole('button', { name: 'Open meeting Retro' }).click();
    const pollCard = page.locator(`[data-poll-id="${poll.id}"]`);
    await pollCard.getByText('2 votes', { exact: false }).waitFor(WAIT);
    // Asked over the REST API: by the organization, named.
    await expect(pollCard.locator('p').first().textContent()).resolves.toMatch(/^\s*By .+ \(the API\) · 2 votes/);
    await expect(pollCard.getByTestId('poll-count').allTextContents()).resolves.toEqual(['0', '2']);
    await expect(pollCard.getByTestId('poll-option').nth(1).textContent()).resolves.toContain('Ada, Bob');

    const chat = page.getByTestId('chat');
    const image = chat.getByRole('img', { name: 'board.png' });
    await image.waitFor(WAIT);
    // Loaded from the emulator's own copy: 16 pixels wide, as sent.
    await expect.poll(() => image.evaluate((img: { naturalWidth: number }) => img.naturalWidth), WAIT).toBe(16);
    const privately = (text: string) => chat.locator('li', { hasText: text }).getByTitle('A private message');
    await expect(privately('Can we keep it short?').textContent()).resolves.toBe('to Ada');
    await expect(privately('Welcome to the retro').count()).resolves.toBe(0);
    const file = chat.getByRole('link', { name: 'notes.txt' });
    const href = await file.getAttribute('href');
    expect(href).toMatch(/^\/media\/chat-files\//);
    expect(await (await fetch(`${emu.url}${href!}`)).text()).toBe('action items');
    await page.getByRole('heading', { name: 'Polls' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(IMAGES, 'dashboard-polls-chat.png'), fullPage: false });
  }, 60_000);

  it('sets a network scenario from its form, shows it in force, a lost page as reconnecting, and clears them', async () => {
    const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Bad network' });
    const [pia, robo] = [await addPerson(emu, meeting.id, 'Pia'), await addPerson(emu, meeting.id, 'Robo')];
    await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${robo.id}/join`, { method: 'POST' });
    // Pia's page: a socket that speaks as the SDK does.
    const sockets = new PageSockets();
    try {
      const pageSocket = await sockets.open(emu.url, meeting.id, pia);
      await pageSocket.joinRoom(pia);
      await page.getByRole('button', { name: 'Meetings' }).click();
      await page.locator(`[data-meeting-id="${meeting.id}"]`).getByRole('button', { name: 'Open meeting Bad network' }).click();
      const form = page.getByTestId('network-form');
      const table = page.getByTestId('network');
      await table.locator('tr', { hasText: 'Pia' }).getByTestId('connection').filter({ hasText: 'connected' }).waitFor(WAIT);

      await form.getByLabel('For', { exact: true }).selectOption({ label: 'Robo' });
      await form.getByLabel('Scenario').selectOption('loss');
      await form.getByLabel('Loss (%)').fill('20');
      await form.getByLabel('Direction').selectOption('up');
      await form.getByRole('button', { name: 'Apply' }).click();
      await table.locator('tr', { hasText: 'Robo' }).filter({ hasText: 'loss 20% up' }).filter({ hasText: '20% lost' }).waitFor(WAIT);

      await form.getByLabel('For', { exact: true }).selectOption({ label: 'Pia' });
      await form.getByLabel('Scenario').selectOption('signal-drop');
      await form.getByRole('button', { name: 'Apply' }).click();
      await table.locator('tr', { hasText: 'Pia' }).getByTestId('connection').filter({ hasText: 'reconnecting, present until' }).waitFor(WAIT);
      expect((await pageSocket.closed).code).toBe(1006);
      // The timeline: Pia's lane shows her present, then reconnecting until now; each scenario is a mark on its participant's lane.
      const timeline = page.getByTestId('timeline');
      const lane = (name: string) => timeline.locator('g.lane', { has: page.locator('text.lane-name', { hasText: new RegExp(`^${name}$`) }) });
      const spans = (name: string) => lane(name).locator('rect.span > title').allTextContents();
      const marks = (name: string) => lane(name).locator('circle.mark > title').allTextContents();
      await expect
        .poll(() => spans('Pia'), WAIT)
        .toEqual([expect.stringMatching(/^present: \d.+ UTC → \d.+ UTC$/), expect.stringMatching(/^reconnecting: \d.+ UTC → now$/)]);
      await expect(marks('Pia')).resolves.toEqual([expect.stringMatching(/^network applied: 1 socket dropped at \d.+ UTC$/)]);
      await expect(spans('Robo')).resolves.toEqual([expect.stringMatching(/^present: \d.+ UTC → now$/)]);
      await expect(marks('Robo')).resolves.toEqual([expect.stringMatching(/^network applied: loss 20% up at \d.+ UTC$/)]);
      await timeline.scrollIntoViewIfNeeded();
      await shot('dashboard-network');

      await page.getByRole('button', { name: 'Clear every scenario' }).click();
      await table.locator('tr', { hasText: 'Robo' }).filter({ hasText: 'clear' }).waitFor(WAIT);
      // Cleared for the whole meeting: a mark on the meeting's own Network lane; the loss that ended, one on Robo's.
      await expect.poll(() => marks('Network'), WAIT).toEqual([expect.stringMatching(/^network applied: 1 ended at \d.+ UTC$/)]);
      await expect(marks('Robo')).resolves.toEqual([
        expect.stringMatching(/^network applied: loss 20% up at \d.+ UTC$/),
        expect.stringMatching(/^network ended: loss 20% up .+ at \d.+ UTC$/),
      ]);
      // The window ends on the emulator's clock: Pia counts as left.
      await page.getByRole('button', { name: 'Advance the clock 1 min' }).click();
      await table.locator('tr', { hasText: 'Pia' }).waitFor({ state: 'detached', timeout: WAIT.timeout });
      const presence = (await (await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/presence`)).json()) as { participants: { name: string }[] };
      expect(presence.participants.map((p) => p.name)).toEqual(['Robo']);
    } finally {
      sockets.terminate();
    }
  }, 60_000);

  it("shows where each recording went in the app's own storage and how the upload ended: delivered, and refused", async () => {
    const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Own bucket' });
    const config = (accessKey: string) => ({ type: 'aws', bucket: 'recordings', region: 'us-east-1', path: 'calls', access_key: accessKey, secret: S3_SECRET });
    type Started = { id: string; output_file_name: string };
    const delivered = await rest<Started>('POST', '/v2/recordings', { meeting_id: meeting.id, storage_config: config(S3_ACCESS_KEY) });
    const refused = await rest<Started>('POST', '/v2/recordings', {
      meeting_id: meeting.id,
      allow_multiple_recordings: true,
      storage_config: config('NOT-A-KEY-zq'),
    });
    await emu.advance(3_000);
    for (const r of [delivered, refused]) await rest('PUT', `/v2/recordings/${r.id}`, { action: 'stop' });
    await emu.advance(60_000);
    const video = await s3.get('recordings', `calls/${delivered.output_file_name}`);
    const audioName = delivered.output_file_name.replace(/\.mp4$/, '.m4a');
    const audio = await s3.get('recordings', `calls/${audioName}`);
    expect(video && audio).toBeTruthy();

    await page.getByRole('button', { name: 'Meetings' }).click();
    await page.locator(`[data-meeting-id="${meeting.id}"]`).getByRole('button', { name: 'Open meeting Own bucket' }).click();
    const upload = (id: string) => page.locator(`[data-recording-id="${id}"]`).getByTestId('storage-upload');
    // Delivered: the bucket and key of each file, its size and its outcome.
    await upload(delivered.id).filter({ hasText: 'uploaded' }).waitFor(WAIT);
    await expect(upload(delivered.id).locator('p').textContent()).resolves.toMatch(/^\s*Storage \(aws\):\s*uploaded\s*$/);
    await expect(upload(delivered.id).locator('li').allTextContents()).resolves.toEqual([
      `${s3.url}/recordings/calls/${delivered.output_file_name} · ${video!.length} bytes · uploaded`,
      `${s3.url}/recordings/calls/${audioName} · ${audio!.length} bytes · uploaded`,
    ]);
    // Refused: where it was going, failed; the file after it never sent; the recording's reason beside it.
    const card = page.locator(`[data-recording-id="${refused.id}"]`);
    await card.getByTestId('recording-status').filter({ hasText: 'ERRORED' }).waitFor(WAIT);
    await expect(upload(refused.id).locator('p').textContent()).resolves.toMatch(/^\s*Storage \(aws\):\s*failed\s*$/);
    await expect(upload(refused.id).locator('li').allTextContents()).resolves.toEqual([
      expect.stringMatching(new RegExp(`^${s3.url}/recordings/calls/${refused.output_file_name} · \\d+ bytes · failed$`)),
      expect.stringMatching(new RegExp(`^${s3.url}/recordings/calls/${refused.output_file_name.replace(/\.mp4$/, '.m4a')} · \\d+ bytes · not sent$`)),
    ]);
    await expect(card.getByTestId('recording-error').textContent()).resolves.toMatch(
      new RegExp(
        `^Upload of ${refused.output_file_name} to ${s3.url}/recordings/calls/${refused.output_file_name} failed: InvalidAccessKeyId: .+ \\(HTTP 403\\)$`,
      ),
    );
    expect(await page.content()).not.toContain('NOT-A-KEY-zq');
  }, 60_000);

  it("says a participant's line from the dashboard's Say form: kept in the session's transcript, and heard live by a page", async () => {
    await addPreset(emu, 'transcribed_host', 'group_call_host', { transcription_enabled: true });
    const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' });
    const [zed, bob] = [await addPerson(emu, meeting.id, 'Zed', 'transcribed_host'), await addPerson(emu, meeting.id, 'Bob')];
    const sockets = new PageSockets();
    try {
      // Bob's page: a socket that speaks as the SDK does. Zed is a scripted participant.
      const bobPage = await sockets.open(emu.url, meeting.id, bob);
      await bobPage.joinRoom(bob);
      expect((await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${zed.id}/join`, { method: 'POST' })).status).toBe(200);

      await page.getByRole('button', { name: 'Meetings' }).click();
      await page.locator(`[data-meeting-id="${meeting.id}"]`).getByRole('button', { name: 'Open meeting Standup' }).click();
      const line = page.getByLabel('A line for Zed to say');
      await line.fill('Good morning team');
      await page.getByRole('button', { name: 'Say it as Zed' }).click();
      // Said: the form is empty again, and the session counts one transcript line.
      await expect.poll(() => line.inputValue(), WAIT).toBe('');
      await expect.poll(() => page.locator(`[data-testid="sessions"] tbody tr`).first().locator('td').nth(6).textContent(), WAIT).toBe('1');

      // The session's transcript, through the REST API (CSV, CRLF lines): Zed's line.
      const { sessions } = await rest<{ sessions: { id: string }[] }>('GET', `/v2/sessions?associated_id=${meeting.id}`);
      expect(sessions).toHaveLength(1);
      const link = await rest<{ transcript_download_url: string }>('GET', `/v2/sessions/${sessions[0]!.id}/transcript`);
      const csv = await (await fetch(link.transcript_download_url)).text();
      expect(csv.trim().split('\r\n')).toEqual([
        'Timestamp,Participant ID,User ID,Custom Participant ID,Participant Name,Transcript',
        expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z,${zed.id},${zed.id},zed,Zed,Good morning team$`)),
      ]);
      // Bob's page heard it live (Zed's preset transcribes), the final line after its partials.
      const heard = () =>
        bobPage.frames
          .filter((f) => f.event === SDK_EVENTS.room.transcript)
          .map((f) => decode('socket.ai.MeetingTranscript', f.payload) as unknown as { transcript: string; is_partial: boolean });
      await expect
        .poll(
          () =>
            heard()
              .filter((h) => !h.is_partial)
              .map((h) => h.transcript.split(',').at(-1)),
          WAIT,
        )
        .toEqual(['Good morning team']);
    } finally {
      sockets.terminate();
    }
  }, 60_000);

  it('logged no console error and sent no request to another origin', () => {
    expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    expect(offOrigin).toEqual([]);
  });
});
