// The service's real web SDKs, unmodified, joining meetings on the emulator in Debian's
// Chromium (headless, driven by playwright-core): @dytesdk/web-core 3.x and its successor
// @cloudflare/realtimekit 2.x. The pages are served from their own origin, as a frontend under
// development is, and reach the emulator's TLS listener at https://*.localhost:<port>; the
// browser trusts exactly the emulator's certificate (by its public key), nothing else.
// What a frontend developer would see: two participants join and see each other, chat, a scripted
// participant appears, a REST kick removes a page, one leaves; the webhooks arrive and the REST
// API sees the pages' participants; a guest waits in the waiting room until a host lets them in or
// turns them away; a webinar viewer asks for the stage, is let on, turned down, invited, removed.
// Private messages, images and files, edits and deletes, web-core's chat channels, and votes in
// polls. Audio and video are the business of media.test.ts.
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { endAll } from '../helpers/end-all.js';
import { CHROMIUM, SDKS, Frontend, addPerson, addPreset, readUntil, restOf, type Person } from '../helpers/web-sdk.js';
import { Receiver, inSentOrder } from '../helpers/webhook-receiver.js';

/** Generous: a shared CI machine can be slow; init and join times are measured by bench/, not here. */
const WAIT = 30_000;

/** What the tests use of the SDK's meeting object (the same in both SDKs). */
interface SdkMeeting {
  self: {
    roomState: string;
    audioEnabled: boolean;
    videoEnabled: boolean;
    on(event: 'roomLeft', listener: (e: { state: string }) => void): void;
    enableAudio(): Promise<void>;
    enableVideo(): Promise<void>;
  };
  participants: {
    joined: { on(event: string, listener: (p: { name: string }) => void): void; toArray(): { name: string; id: string; userId: string }[] };
    waitlisted: { toArray(): { id: string; name: string }[] };
    acceptWaitingRoomRequest(id: string): Promise<void>;
    rejectWaitingRoomRequest(id: string): Promise<void>;
  };
  chat: {
    on(event: 'chatUpdate', listener: (e: { action: string; message: SdkMessage }) => void): void;
    sendTextMessage(text: string, peerIds?: string[]): Promise<void>;
    editTextMessage(id: string, text: string): Promise<void>;
    deleteMessage(id: string): Promise<void>;
    messages: SdkMessage[];
  };
  polls: { items: SdkPoll[]; vote(pollId: string, index: number): Promise<void> };
  join(): Promise<void>;
  leave(): Promise<void>;
}

/** A chat message as the SDK hands it to the page (chatUpdate, meeting.chat.messages). */
interface SdkMessage {
  id: string;
  displayName: string;
  type: string;
  message: string;
  link: string;
  name: string;
  size: number;
  targetUserIds: string[];
  channelId?: string;
}

/** A poll as the SDK keeps it (meeting.polls.items). */
interface SdkPoll {
  id: string;
  question: string;
  options: { text: string; count: number; votes: { id: string; name: string }[] }[];
  voted: string[];
}

/** The page's globals: the SDK's client class, and what the test keeps (the test program has no DOM types). */
interface SdkWindow {
  meeting: SdkMeeting;
  log: string[];
  /** Every chatUpdate the page heard: its action and message. */
  heard: { action: string; message: SdkMessage }[];
  [client: string]: unknown;
}

/** What a test reads of a page: its state, who it sees, what it heard. */
interface PageView {
  roomState: string;
  joined: string[];
  /** Who waits in the waiting room, as a host's page sees them. */
  waitlisted: string[];
  log: string[];
}

// Skipped on a machine without Chromium, except in CI (.ci/run installs it there).
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI).each(SDKS)('$name in Chromium', (sdk) => {
  let emu: RunningEmulator;
  let receiver: Receiver;
  let frontend: Frontend;

  const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

  const person = (meetingId: string, name: string, preset?: string): Promise<Person> => addPerson(emu, meetingId, name, preset);

  /** A read of the control API. */
  const control = async (route: string): Promise<{ participants: { name: string; status: string }[] }> =>
    (await fetch(`${emu.url}/_emulator${route}`)).json() as Promise<{ participants: { name: string; status: string }[] }>;

  /** A page of the frontend: init() and join() with the participant's token, media off; it records what it hears. */
  async function join(p: Person): Promise<Page> {
    const page = await frontend.open(p);
    await page.evaluate(
      async ({ token, base, global }) => {
        const w = globalThis as unknown as SdkWindow;
        const client = w[global] as { init(options: unknown): Promise<SdkMeeting> };
        const meeting = await client.init({ authToken: token, baseURI: base, defaults: { audio: false, video: false } });
        w.meeting = meeting;
        w.log = [];
        meeting.participants.joined.on('participantJoined', (x: { name: string }) => w.log.push(`joined:${x.name}`));
        meeting.participants.joined.on('participantLeft', (x: { name: string }) => w.log.push(`left:${x.name}`));
        w.heard = [];
        meeting.chat.on('chatUpdate', ({ action, message }: { action: string; message: SdkMessage }) => {
          w.log.push(`chat:${message.displayName}:${message.message}`);
          w.heard.push({ action, message });
        });
        meeting.self.on('roomLeft', ({ state }: { state: string }) => w.log.push(`roomLeft:${state}`));
        await meeting.join();
      },
      { token: p.token, base: frontend.base, global: sdk.global },
    );
    return page;
  }

  function view(page: Page): Promise<PageView> {
    return page.evaluate(() => {
      const w = globalThis as unknown as SdkWindow;
      return {
        roomState: w.meeting.self.roomState,
        joined: w.meeting.participants.joined
          .toArray()
          .map((x) => x.name)
          .sort(),
        waitlisted: w.meeting.participants.waitlisted
          .toArray()
          .map((x) => x.name)
          .sort(),
        log: w.log,
      };
    });
  }

  /** Waits until the page's view satisfies `ok` (the SDK updates on socket pushes, a moment after the REST call that caused them). */
  function until(page: Page, ok: (v: PageView) => boolean): Promise<PageView> {
    return readUntil(() => view(page), ok, WAIT, 50);
  }

  beforeAll(async () => {
    receiver = await Receiver.start();
    emu = await startEmulator({ seed: `web-sdk ${sdk.global}`, clock: 'manual', tlsPort: 0 });
    await rest('POST', '/v2/webhooks', {
      name: 'frontend',
      url: receiver.url(),
      events: ['meeting.started', 'meeting.participantJoined', 'meeting.participantLeft', 'meeting.ended'],
    });
    // The frontend's own origin (a page and the SDK's browser bundle), and a Chromium that trusts the
    // emulator's certificate by its public key: a throwaway profile's way to trust one certificate.
    frontend = await Frontend.start(sdk, emu);
    // A guest waits in a meeting with a waiting room until a host admits or rejects them.
    await addPreset(emu, 'guest', 'group_call_participant', { waiting_room_type: 'SKIP_ON_ACCEPT' });
    // A webinar viewer who may ask for the stage.
    await addPreset(emu, 'webinar_speaker', 'webinar_viewer', {
      media: { audio: { can_produce: 'CAN_REQUEST' }, video: { can_produce: 'CAN_REQUEST' }, screenshare: { can_produce: 'NOT_ALLOWED' } },
    });
  }, 60_000);

  // Each test's pages go with it: a page left open keeps its socket, its statistics and its timers
  // running through every later test, and what it throws would be counted against them.
  afterEach(async () => {
    await frontend?.endPages();
  });

  afterAll(() =>
    endAll(
      () => frontend?.close(),
      () => emu?.close(),
      () => receiver?.close(),
    ),
  );

  it(
    'two pages join and see each other, chat, see a scripted participant; a REST kick removes one; the other leaves and the meeting ends',
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Frontend demo' });
      const [ada, bob, carl] = [await person(meeting.id, 'Ada'), await person(meeting.id, 'Bob'), await person(meeting.id, 'Carl')];

      const a = await join(ada);
      const b = await join(bob);
      expect((await until(a, (v) => v.joined.includes('Bob'))).joined).toEqual(['Bob']);
      expect((await until(b, (v) => v.joined.includes('Ada'))).joined).toEqual(['Ada']);
      expect((await view(a)).roomState).toBe('joined');

      // The REST API sees both pages' participants in the LIVE session.
      const session = await rest<{ id: string; live_participants: number; status: string }>('GET', `/v2/meetings/${meeting.id}/active-session`);
      expect(session).toMatchObject({ status: 'LIVE', live_participants: 2 });
      const inSession = await rest<{ participants: { display_name: string; custom_participant_id: string }[] }>(
        'GET',
        `/v2/sessions/${session.id}/participants`,
      );
      expect(inSession.participants.map((p) => p.custom_participant_id).sort()).toEqual(['ada', 'bob']);

      await a.evaluate(() => (globalThis as unknown as SdkWindow).meeting.chat.sendTextMessage('Hello from Ada'));
      expect((await until(b, (v) => v.log.includes('chat:Ada:Hello from Ada'))).log).toContain('chat:Ada:Hello from Ada');
      expect((await view(a)).log).toContain('chat:Ada:Hello from Ada');

      // A scripted participant (control API) appears in the pages like anyone else.
      expect((await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${carl.id}/join`, { method: 'POST' })).status).toBe(200);
      expect((await until(a, (v) => v.joined.includes('Carl'))).joined).toEqual(['Bob', 'Carl']);

      // No page error while in the meeting. (After a leave, the SDK's own stats timers may still fire
      // on closed transports and report it; that is the SDK's business, not the emulator's.)
      expect(frontend.pageErrors).toEqual([]);

      // A REST kick removes Bob's page; Ada sees him go.
      await rest('POST', `/v2/meetings/${meeting.id}/active-session/kick`, { participant_ids: [bob.id] });
      expect((await until(b, (v) => v.roomState === 'kicked')).roomState).toBe('kicked');
      expect((await until(a, (v) => !v.joined.includes('Bob'))).joined).toEqual(['Carl']);

      await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${carl.id}/leave`, { method: 'POST' });
      await a.evaluate(() => (globalThis as unknown as SdkWindow).meeting.leave());
      expect((await until(a, (v) => v.log.includes('roomLeft:left'))).log).toContain('roomLeft:left');

      // The webhooks a backend would get, in order, from the pages' presence. The last leave's and the
      // end's are still on their way to the receiver when the page has left: read until they arrive.
      const events = async () =>
        inSentOrder(receiver.received, await emu.deliveries())
          .map((r) => r.json as { event: string; participant?: { customParticipantId?: string } })
          .map((e) => e.event + (e.participant ? `:${e.participant.customParticipantId}` : ''));
      await expect
        .poll(events, { timeout: WAIT })
        .toEqual([
          'meeting.started',
          'meeting.participantJoined:ada',
          'meeting.participantJoined:bob',
          'meeting.participantJoined:carl',
          'meeting.participantLeft:bob',
          'meeting.participantLeft:carl',
          'meeting.participantLeft:ada',
          'meeting.ended',
        ]);
    },
    4 * WAIT,
  );

  it(
    'chat: a private message reaches its two pages only; an image and a file go up to the emulator and come back offline; an edit and a delete reach the others',
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Chat' });
      const [ada, bob, carl] = [await person(meeting.id, 'Ada'), await person(meeting.id, 'Bob'), await person(meeting.id, 'Carl')];
      const [a, b, c] = [await join(ada), await join(bob), await join(carl)];
      await until(a, (v) => v.joined.length === 2);
      const heard = (page: Page) => page.evaluate(() => (globalThis as unknown as SdkWindow).heard);

      // The SDK takes the recipients' peer ids, as its page knows them.
      await a.evaluate(async () => {
        const m = (globalThis as unknown as SdkWindow).meeting;
        const bobPeer = m.participants.joined.toArray().find((p) => p.name === 'Bob')!;
        await m.chat.sendTextMessage('just for Bob', [bobPeer.id]);
        await m.chat.sendTextMessage('for everyone');
      });
      await expect.poll(async () => (await heard(c)).map((h) => h.message.message), { timeout: WAIT }).toEqual(['for everyone']);
      await expect.poll(async () => (await heard(b)).map((h) => h.message.message), { timeout: WAIT }).toEqual(['just for Bob', 'for everyone']);
      expect((await heard(b))[0]!.message.targetUserIds.sort()).toEqual([ada.id, bob.id].sort());

      // An image and a file: uploaded to the emulator's TLS host, sent as links, fetched back by another page.
      await a.evaluate(`(async () => {
        const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (ch) => ch.charCodeAt(0));
        await globalThis.meeting.chat.sendImageMessage(new File([png], 'dot.png', { type: 'image/png' }));
        await globalThis.meeting.chat.sendFileMessage(new File(['hello file'], 'notes.txt', { type: 'text/plain' }));
      })()`);
      await expect.poll(async () => (await heard(b)).map((h) => h.message.type), { timeout: WAIT }).toEqual(['text', 'text', 'image', 'file']);
      const [image, file] = (await heard(b)).slice(2).map((h) => h.message);
      expect(new URL(image!.link).host).toBe(`api.${frontend.base}`);
      expect(file).toMatchObject({ name: 'notes.txt', size: 10 });
      const fetched = await b.evaluate<{ imageType: string; imageBytes: number; text: string }>(`(async () => {
        const img = await fetch(${JSON.stringify(image!.link)});
        const txt = await fetch(${JSON.stringify(file!.link)});
        return { imageType: img.headers.get('content-type'), imageBytes: (await img.arrayBuffer()).byteLength, text: await txt.text() };
      })()`);
      expect(fetched).toEqual({ imageType: 'image/png', imageBytes: 70, text: 'hello file' });

      // Ada edits her public message, then deletes it: Bob's page and Carl's hear both.
      const publicId = (await heard(c))[0]!.message.id;
      await a.evaluate(async (id) => {
        const m = (globalThis as unknown as SdkWindow).meeting;
        await m.chat.editTextMessage(id, 'for everyone (edited)');
      }, publicId);
      await expect.poll(async () => (await heard(c)).map((h) => `${h.action}:${h.message.message}`), { timeout: WAIT }).toContain('edit:for everyone (edited)');
      await a.evaluate((id) => (globalThis as unknown as SdkWindow).meeting.chat.deleteMessage(id), publicId);
      await expect.poll(async () => (await heard(c)).map((h) => h.action), { timeout: WAIT }).toEqual(['add', 'add', 'add', 'edit', 'delete']);
      expect((await c.evaluate(() => (globalThis as unknown as SdkWindow).meeting.chat.messages.map((x) => x.type))).sort()).toEqual(['file', 'image']);

      // The session's export holds what is left: the private message, the image and the file.
      const session = await rest<{ id: string }>('GET', `/v2/meetings/${meeting.id}/active-session`);
      const link = await rest<{ chat_download_url: string }>('GET', `/v2/sessions/${session.id}/chat`);
      const rows = (await (await fetch(link.chat_download_url)).text()).split('\r\n').slice(1, -1);
      expect(rows.map((r) => r.split(',')[7])).toEqual(['TEXT_MESSAGE', 'IMAGE_MESSAGE', 'FILE_MESSAGE']);
      expect(frontend.pageErrors).toEqual([]);
      for (const page of [a, b, c]) await page.evaluate(() => (globalThis as unknown as SdkWindow).meeting.leave());
    },
    4 * WAIT,
  );

  // Chat channels are web-core's alone: RealtimeKit has no channel in its API.
  it.runIf(sdk.global === 'DyteClient')(
    'chat channels: a page makes one with another; its members chat in it apart from the others, with unread counts',
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Channels' });
      const [ada, bob, carl] = [await person(meeting.id, 'Ada'), await person(meeting.id, 'Bob'), await person(meeting.id, 'Carl')];
      const [a, b, c] = [await join(ada), await join(bob), await join(carl)];
      await until(a, (v) => v.joined.length === 2);
      const channel = await a.evaluate<{ id: string; displayName: string; memberIds: string[] }>(
        `globalThis.meeting.chat.createChannel('Design', [${JSON.stringify(bob.id)}], { visibility: 'private' })`,
      );
      expect(channel).toMatchObject({ displayName: 'Design', visibility: 'private' });
      expect(channel.memberIds.sort()).toEqual([ada.id, bob.id].sort());
      const channelsOf = (page: Page) => page.evaluate<string[]>('globalThis.meeting.chat.channels.map((x) => x.displayName + ":" + x.unreadCount)');
      await expect.poll(() => channelsOf(b), { timeout: WAIT }).toEqual(['Design:0']);

      await a.evaluate(`globalThis.meeting.chat.sendMessageToChannel({ type: 'text', message: 'in Design' }, ${JSON.stringify(channel.id)})`);
      await expect.poll(() => channelsOf(b), { timeout: WAIT }).toEqual(['Design:1']);
      const inChannel = await b.evaluate<string[]>(
        `globalThis.meeting.chat.getMessages(Date.now(), 10, true, 0, ${JSON.stringify(channel.id)}).then((r) => r.messages.map((x) => x.message + ':' + x.channelIndex))`,
      );
      expect(inChannel).toEqual(['in Design:1']);
      await b.evaluate(`globalThis.meeting.chat.markLastReadMessage(${JSON.stringify(channel.id)}, { userId: ${JSON.stringify(bob.id)}, channelIndex: '1' })`);
      expect(await channelsOf(b)).toEqual(['Design:0']);
      // Carl is no member: no channel, no message.
      await a.evaluate(() => (globalThis as unknown as SdkWindow).meeting.chat.sendTextMessage('for everyone'));
      await expect
        .poll(async () => (await c.evaluate(() => (globalThis as unknown as SdkWindow).heard)).map((h) => h.message.message), { timeout: WAIT })
        .toEqual(['for everyone']);
      expect(await channelsOf(c)).toEqual([]);
      expect(frontend.pageErrors).toEqual([]);
      for (const page of [a, b, c]) await page.evaluate(() => (globalThis as unknown as SdkWindow).meeting.leave());
    },
    4 * WAIT,
  );

  it(
    'polls: a page votes and every page counts it, a bot votes through the control API, a second vote changes nothing',
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Votes' });
      const [ada, bob, carl] = [await person(meeting.id, 'Ada'), await person(meeting.id, 'Bob'), await person(meeting.id, 'Carl')];
      const a = await join(ada);
      const b = await join(bob);
      const { poll } = await rest<{ poll: { id: string } }>('POST', `/v2/meetings/${meeting.id}/active-session/poll`, {
        question: 'Lunch?',
        options: ['Pizza', 'Salad'],
      });
      const counts = (page: Page) =>
        page.evaluate(() => (globalThis as unknown as SdkWindow).meeting.polls.items.map((x) => `${x.question}:${x.options.map((o) => o.count).join('/')}`));
      await expect.poll(() => counts(a), { timeout: WAIT }).toEqual(['Lunch?:0/0']);

      await b.evaluate((id) => (globalThis as unknown as SdkWindow).meeting.polls.vote(id, 1), poll.id);
      await expect.poll(() => counts(a), { timeout: WAIT }).toEqual(['Lunch?:0/1']);
      await expect.poll(() => counts(b), { timeout: WAIT }).toEqual(['Lunch?:0/1']);
      // Who voted, as the kits read it to show a page its own vote.
      const seen = await a.evaluate(() => (globalThis as unknown as SdkWindow).meeting.polls.items[0]!);
      expect(seen.voted).toEqual([bob.id]);
      expect(seen.options[1]!.votes).toEqual([{ id: bob.id, name: 'Bob' }]);

      expect((await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${carl.id}/join`, { method: 'POST' })).status).toBe(200);
      const byBot = await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${carl.id}/polls/${poll.id}/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ option: 0 }),
      });
      expect(byBot.status).toBe(200);
      await expect.poll(() => counts(a), { timeout: WAIT }).toEqual(['Lunch?:1/1']);
      await expect.poll(() => counts(b), { timeout: WAIT }).toEqual(['Lunch?:1/1']);

      // A second vote is refused (the SDK sends it and awaits no answer): nothing changes anywhere.
      await b.evaluate((id) => (globalThis as unknown as SdkWindow).meeting.polls.vote(id, 0), poll.id);
      await a.evaluate((id) => (globalThis as unknown as SdkWindow).meeting.polls.vote(id, 0), poll.id);
      for (const page of [a, b]) await expect.poll(() => counts(page), { timeout: WAIT }).toEqual(['Lunch?:2/1']);
      const read = (await (await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/polls`)).json()) as { polls: { voted: string[] }[] };
      expect(read.polls[0]!.voted).toEqual([bob.id, carl.id, ada.id]);
      expect(frontend.pageErrors).toEqual([]);
      for (const page of [a, b]) await page.evaluate(() => (globalThis as unknown as SdkWindow).meeting.leave());
    },
    4 * WAIT,
  );

  it(
    'the waiting room: a guest waits, the host sees them and lets them in; another is turned away; only who got in joined',
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Office hours', waiting_room: true });
      const [hana, gus, lee] = [await person(meeting.id, 'Hana'), await person(meeting.id, 'Gus', 'guest'), await person(meeting.id, 'Lee', 'guest')];
      const h = await join(hana);
      const g = await join(gus);
      expect((await view(g)).roomState).toBe('waitlisted');
      expect((await until(h, (v) => v.waitlisted.includes('Gus'))).waitlisted).toEqual(['Gus']);
      expect((await view(h)).joined).toEqual([]);

      // The host lets Gus in (by the id the SDK lists him under): his page joins the meeting by itself.
      await h.evaluate(() => {
        const { participants } = (globalThis as unknown as SdkWindow).meeting;
        return participants.acceptWaitingRoomRequest(participants.waitlisted.toArray()[0]!.id);
      });
      expect((await until(g, (v) => v.roomState === 'joined')).roomState).toBe('joined');
      expect((await until(h, (v) => v.joined.includes('Gus') && v.waitlisted.length === 0)).joined).toEqual(['Gus']);
      expect((await until(g, (v) => v.joined.includes('Hana'))).joined).toEqual(['Hana']);

      // Lee waits, and is turned away: his page ends its join as rejected, and never joined.
      const l = await join(lee);
      expect((await until(h, (v) => v.waitlisted.includes('Lee'))).waitlisted).toEqual(['Lee']);
      await h.evaluate(() => {
        const { participants } = (globalThis as unknown as SdkWindow).meeting;
        return participants.rejectWaitingRoomRequest(participants.waitlisted.toArray()[0]!.id);
      });
      expect((await until(l, (v) => v.roomState === 'rejected')).log).toContain('roomLeft:rejected');
      expect((await until(h, (v) => v.waitlisted.length === 0)).waitlisted).toEqual([]);
      expect(frontend.pageErrors).toEqual([]);

      const session = await rest<{ id: string }>('GET', `/v2/meetings/${meeting.id}/active-session`);
      const inSession = await rest<{ participants: { custom_participant_id: string }[] }>('GET', `/v2/sessions/${session.id}/participants`);
      expect(inSession.participants.map((p) => p.custom_participant_id).sort()).toEqual(['gus', 'hana']);
      for (const page of [h, g]) await page.evaluate(() => (globalThis as unknown as SdkWindow).meeting.leave());
    },
    4 * WAIT,
  );

  it(
    'the stage: a viewer asks, the presenter sees the request and lets it on, the viewer joins the stage; turned down, invited, removed; every page agrees',
    async () => {
      interface StageWindow {
        meeting: {
          stage: {
            status: string;
            on(event: string, listener: (...args: unknown[]) => void): void;
            requestAccess(): Promise<void>;
            cancelRequestAccess(): Promise<void>;
            grantAccess(ids: string[]): Promise<void>;
            denyAccess(ids: string[]): Promise<void>;
            kick(ids: string[]): Promise<void>;
            join(): Promise<void>;
            leave(): Promise<void>;
            getAccessRequests(): { stageRequests: { displayName: string }[] };
          };
          participants: { joined: { toArray(): { name: string; userId: string; stageStatus: string }[] } };
        };
        log: string[];
      }
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Webinar' });
      const [hana, vic] = [await person(meeting.id, 'Hana', 'webinar_presenter'), await person(meeting.id, 'Vic', 'webinar_speaker')];
      const h = await join(hana);
      const v = await join(vic);
      await v.evaluate(() => {
        const w = globalThis as unknown as StageWindow;
        w.meeting.stage.on('stageRequestApproved', () => w.log.push('stage:approved'));
        w.meeting.stage.on('stageRequestRejected', () => w.log.push('stage:rejected'));
      });
      const status = (page: Page) => page.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.status);
      const vicAsHost = () =>
        h.evaluate(() => (globalThis as unknown as StageWindow).meeting.participants.joined.toArray().find((p) => p.name === 'Vic')?.stageStatus);
      const waitFor = async (read: () => Promise<unknown>, want: unknown) => {
        const deadline = Date.now() + WAIT;
        while ((await read()) !== want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        expect(await read()).toBe(want);
      };
      const vicId = () => h.evaluate(() => (globalThis as unknown as StageWindow).meeting.participants.joined.toArray().find((p) => p.name === 'Vic')!.userId);
      expect(await status(h)).toBe('ON_STAGE');
      expect(await status(v)).toBe('OFF_STAGE');
      expect(await vicAsHost()).toBe('OFF_STAGE');

      // Asks, cancels, asks again; the presenter sees the request and lets Vic on; Vic joins.
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.requestAccess());
      await waitFor(vicAsHost, 'REQUESTED_TO_JOIN_STAGE');
      expect(await h.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.getAccessRequests().stageRequests.map((r) => r.displayName))).toEqual([
        'Vic',
      ]);
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.cancelRequestAccess());
      await waitFor(vicAsHost, 'OFF_STAGE');
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.requestAccess());
      await waitFor(vicAsHost, 'REQUESTED_TO_JOIN_STAGE');
      const id = await vicId();
      await h.evaluate((ids) => (globalThis as unknown as StageWindow).meeting.stage.grantAccess(ids), [id]);
      await waitFor(() => status(v), 'ACCEPTED_TO_JOIN_STAGE');
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.join());
      await waitFor(vicAsHost, 'ON_STAGE');
      expect(await status(v)).toBe('ON_STAGE');

      // Vic leaves the stage, asks again and is turned down; then the presenter invites Vic, who joins and is removed.
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.leave());
      await waitFor(vicAsHost, 'OFF_STAGE');
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.requestAccess());
      await waitFor(vicAsHost, 'REQUESTED_TO_JOIN_STAGE');
      await h.evaluate((ids) => (globalThis as unknown as StageWindow).meeting.stage.denyAccess(ids), [id]);
      await waitFor(() => status(v), 'OFF_STAGE');
      await waitFor(vicAsHost, 'OFF_STAGE');
      await h.evaluate((ids) => (globalThis as unknown as StageWindow).meeting.stage.grantAccess(ids), [id]);
      await waitFor(() => status(v), 'ACCEPTED_TO_JOIN_STAGE');
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.join());
      await waitFor(vicAsHost, 'ON_STAGE');
      await h.evaluate((ids) => (globalThis as unknown as StageWindow).meeting.stage.kick(ids), [id]);
      await waitFor(() => status(v), 'OFF_STAGE');
      await waitFor(vicAsHost, 'OFF_STAGE');
      expect((await view(v)).log.filter((l) => l.startsWith('stage:'))).toEqual(['stage:approved', 'stage:rejected', 'stage:approved']);
      expect((await control(`/meetings/${meeting.id}/stage`)).participants).toEqual([
        expect.objectContaining({ name: 'Hana', status: 'ON_STAGE' }),
        expect.objectContaining({ name: 'Vic', status: 'OFF_STAGE' }),
      ]);
      expect(frontend.pageErrors).toEqual([]);
      for (const page of [h, v]) await page.evaluate(() => (globalThis as unknown as SdkWindow).meeting.leave());
    },
    4 * WAIT,
  );

  it(
    'a participant added through the RealtimeKit API (the Cloudflare prefix and API token) joins with its token',
    async () => {
      const kit = `${emu.url}/client/v4/accounts/00000000000000000000000000000001/realtime/kit/${emu.orgId}`;
      const call = async <T>(route: string, body: unknown): Promise<T> => {
        const res = await fetch(`${kit}${route}`, {
          method: 'POST',
          headers: { authorization: 'Bearer emulator-api-key', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status, route).toBeLessThan(300);
        return ((await res.json()) as { data: T }).data;
      };
      const meeting = await call<{ id: string }>('/meetings', { title: 'Through the prefix' });
      const erin = await call<{ id: string; token: string }>(`/meetings/${meeting.id}/participants`, {
        name: 'Erin',
        preset_name: 'group_call_host',
        custom_participant_id: 'erin',
      });
      const page = await join({ id: erin.id, token: erin.token, name: 'Erin' });
      expect((await view(page)).roomState).toBe('joined');
      const session = await rest<{ live_participants: number }>('GET', `/v2/meetings/${meeting.id}/active-session`);
      expect(session.live_participants).toBe(1);
      await page.evaluate(() => (globalThis as unknown as SdkWindow).meeting.leave());
    },
    2 * WAIT,
  );
});
