// Transcripts live, driven from Node the way the SDK reads them: a line said through the control
// API by a participant whose preset has transcription_enabled reaches every page of the meeting as
// room.transcript (socket.ai.MeetingTranscript): partials that grow word by word, then the final
// line, each one CSV line of epoch seconds, the speaker's peer id, user id, custom participant id,
// name and text. A speaker without it is kept in the session's transcript but not heard live. A page
// that joins late reads the lines the pages heard before, under the same ids, through the SDK's
// active-transcript call. The pace and
// size of lines are bounded. A network test: real sockets on 127.0.0.1, manual clock.
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { decode } from '../../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { partialsOf } from '../../../src/realtime/features/transcripts.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, addPreset, controlOf, restOf, type Person } from '../../helpers/web-sdk.js';

const { room: ROOM } = SDK_EVENTS;

let emu: RunningEmulator;
const sockets = new PageSockets();

beforeEach(async () => {
  emu = await startEmulator({ seed: 'live transcripts', clock: 'manual', startTime: Date.parse('2026-03-01T10:00:00.000Z'), tlsPort: 0 });
  await addPreset(emu, 'transcribed_host', 'group_call_host', { transcription_enabled: true });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);
const control = (method: string, path: string, body?: unknown) => controlOf(emu)(method, `/_emulator${path}`, body);

async function page(meetingId: string, p: Person): Promise<SdkSocket> {
  const s = await sockets.open(emu.url, meetingId, p);
  await s.joinRoom(p);
  return s;
}

interface Heard {
  meeting_id: string;
  transcript: string;
  is_partial: boolean;
}

/** Every transcript push a page got so far, in order. */
function heard(s: SdkSocket): Heard[] {
  return s.frames.filter((f) => f.event === ROOM.transcript).map((f) => decode('socket.ai.MeetingTranscript', f.payload) as unknown as Heard);
}

async function until<T>(read: () => T, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  return read();
}

/** A GET with the Host header the SDK sends (fetch sets its own). */
function onSdkHost(host: string, path: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${emu.url}${path}`, { headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

const EPOCH = Date.parse('2026-03-01T10:00:00.000Z') / 1000;

describe('a line said by a transcribed participant', () => {
  it('reaches every page as partial transcripts, then the final line, with the speaker ids and name (bot speaker)', async () => {
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' })).id;
    const [ada, bob] = [await addPerson(emu, m, 'Ada'), await addPerson(emu, m, 'Bob')];
    const bot = await addPerson(emu, m, 'Zed Bot', 'transcribed_host');
    const a = await page(m, ada);
    const b = await page(m, bob);
    expect((await control('POST', `/meetings/${m}/participants/${bot.id}/join`)).status).toBe(200);

    const said = await control('POST', `/meetings/${m}/participants/${bot.id}/transcript`, { text: 'Good morning, "team", and welcome back' });
    expect(said.status).toBe(200);
    expect(said.body).toMatchObject({ participant_id: bot.id, name: 'Zed Bot', live: true, text: 'Good morning, "team", and welcome back' });

    const row = (text: string) => `${EPOCH},${bot.id},${bot.id},zed bot,Zed Bot,"${text.replace(/"/g, '""')}"`;
    const expected: Heard[] = [
      { meeting_id: m, transcript: row('Good morning,'), is_partial: true },
      { meeting_id: m, transcript: row('Good morning, "team",'), is_partial: true },
      { meeting_id: m, transcript: row('Good morning, "team", and welcome'), is_partial: true },
      { meeting_id: m, transcript: row('Good morning, "team", and welcome back'), is_partial: false },
    ];
    for (const s of [a, b])
      expect(
        await until(
          () => heard(s),
          (h) => h.length === 4,
        ),
      ).toEqual(expected);
  });

  it("names a page's speaker by the page's peer id, and a one-word line comes final at once", async () => {
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' })).id;
    const ada = await addPerson(emu, m, 'Ada', 'transcribed_host');
    const bob = await addPerson(emu, m, 'Bob');
    await page(m, ada);
    const b = await page(m, bob);
    expect((await control('POST', `/meetings/${m}/participants/${ada.id}/transcript`, { text: 'Hello' })).status).toBe(200);
    expect(
      await until(
        () => heard(b),
        (h) => h.length === 1,
      ),
    ).toEqual([{ meeting_id: m, transcript: `${EPOCH},peer-ada,${ada.id},ada,Ada,Hello`, is_partial: false }]);
  });

  it('a participant whose preset does not transcribe is kept in the transcript, but no page hears it', async () => {
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' })).id;
    const [ada, bob] = [await addPerson(emu, m, 'Ada'), await addPerson(emu, m, 'Bob')];
    const b = await page(m, bob);
    await page(m, ada);
    const said = await control('POST', `/meetings/${m}/participants/${ada.id}/transcript`, { text: 'off the record' });
    expect(said.body).toMatchObject({ live: false });
    // A transcribed line said after it is the first the page hears.
    const zed = await addPerson(emu, m, 'Zed', 'transcribed_host');
    await control('POST', `/meetings/${m}/participants/${zed.id}/join`);
    await control('POST', `/meetings/${m}/participants/${zed.id}/transcript`, { text: 'on' });
    const got = await until(
      () => heard(b),
      (h) => h.length >= 1,
    );
    expect(got.map((h) => h.transcript.split(',').at(-1))).toEqual(['on']);
    const session = await rest<{ sessions: { id: string }[] }>('GET', `/v2/sessions?associated_id=${m}`);
    expect(session.sessions).toHaveLength(1);
  });
});

describe('a page that joins late', () => {
  it("reads the lines said before through the SDK's active-transcript call: a signed link to the lines in the SDK's own form", async () => {
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' })).id;
    const zed = await addPerson(emu, m, 'Zed', 'transcribed_host');
    const late = await addPerson(emu, m, 'Late', 'transcribed_host');
    await control('POST', `/meetings/${m}/participants/${zed.id}/join`);
    await control('POST', `/meetings/${m}/participants/${zed.id}/transcript`, { text: 'first, line' });
    await emu.advance(2000);
    await control('POST', `/meetings/${m}/participants/${zed.id}/transcript`, { text: 'second\nline' });

    const sdkHost = `api.localhost:${new URL(emu.tlsUrl!).port}`;
    const res = await onSdkHost(sdkHost, `/v2/meetings/${m}/active-transcript`, late.token);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { success: boolean; data: { transcript_download_url: string; transcript_download_url_expiry: string } };
    expect(body.success).toBe(true);
    const link = new URL(body.data.transcript_download_url);
    expect(link.origin).toBe(emu.tlsUrl);
    const file = await fetch(`${emu.url}${link.pathname}${link.search}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(`${EPOCH},${zed.id},${zed.id},zed,Zed,"first, line"\n${EPOCH + 2},${zed.id},${zed.id},zed,Zed,second line\n`);
    // Without the signature, nothing.
    expect((await fetch(`${emu.url}${link.pathname}`)).status).toBe(403);
    // Another meeting's token is refused.
    const other = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Other' })).id;
    const stranger = await addPerson(emu, other, 'Stranger');
    const refused = await onSdkHost(sdkHost, `/v2/meetings/${m}/active-transcript`, stranger.token);
    expect(refused.status).toBe(403);
  });
});

describe('a page that joins late reads what the pages heard', () => {
  it("the same lines under the same peer ids: a page's speaker by its page's peer id, a bot by its participant id, and no line of a speaker the pages did not hear", async () => {
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' })).id;
    const ada = await addPerson(emu, m, 'Ada', 'transcribed_host');
    const bob = await addPerson(emu, m, 'Bob');
    const zed = await addPerson(emu, m, 'Zed', 'transcribed_host');
    const late = await addPerson(emu, m, 'Late', 'transcribed_host');
    await page(m, ada);
    await page(m, bob);
    const listener = await page(m, await addPerson(emu, m, 'Obs'));
    await control('POST', `/meetings/${m}/participants/${zed.id}/join`);

    expect((await control('POST', `/meetings/${m}/participants/${ada.id}/transcript`, { text: 'Ada speaking' })).body).toMatchObject({ live: true });
    expect((await control('POST', `/meetings/${m}/participants/${bob.id}/transcript`, { text: 'off the record' })).body).toMatchObject({ live: false });
    await emu.advance(1000);
    expect((await control('POST', `/meetings/${m}/participants/${zed.id}/transcript`, { text: 'Zed here' })).body).toMatchObject({ live: true });
    const finals = (
      await until(
        () => heard(listener).filter((h) => !h.is_partial),
        (h) => h.length === 2,
      )
    ).map((h) => h.transcript);
    expect(finals).toEqual([`${EPOCH},peer-ada,${ada.id},ada,Ada,Ada speaking`, `${EPOCH + 1},${zed.id},${zed.id},zed,Zed,Zed here`]);

    const sdkHost = `api.localhost:${new URL(emu.tlsUrl!).port}`;
    const res = await onSdkHost(sdkHost, `/v2/meetings/${m}/active-transcript`, late.token);
    expect(res.status).toBe(200);
    const link = new URL((JSON.parse(res.body) as { data: { transcript_download_url: string } }).data.transcript_download_url);
    const file = await fetch(`${emu.url}${link.pathname}${link.search}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(finals.map((l) => `${l}\n`).join(''));
    // The session's transcript keeps every line said, the one no page heard too.
    const transcript = emu.deps.store.org(emu.orgId)!.sessions.values().next().value!.transcript;
    expect(transcript.map((l) => l.text)).toEqual(['Ada speaking', 'off the record', 'Zed here']);
  });
});

describe('bounds', () => {
  it('a speaker says at most 10 lines a second of the emulator clock (429 with retry-after), and a line holds at most 4000 characters', async () => {
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' })).id;
    const zed = await addPerson(emu, m, 'Zed', 'transcribed_host');
    await control('POST', `/meetings/${m}/participants/${zed.id}/join`);
    for (let i = 0; i < 10; i++) expect((await control('POST', `/meetings/${m}/participants/${zed.id}/transcript`, { text: `line ${i}` })).status).toBe(200);
    const res = await fetch(`${emu.url}/_emulator/meetings/${m}/participants/${zed.id}/transcript`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'one too many' }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    // The pace is each speaker's own: another one speaks in the same second.
    const amy = await addPerson(emu, m, 'Amy', 'transcribed_host');
    await control('POST', `/meetings/${m}/participants/${amy.id}/join`);
    expect((await control('POST', `/meetings/${m}/participants/${amy.id}/transcript`, { text: 'my turn' })).status).toBe(200);
    await emu.advance(1000);
    expect((await control('POST', `/meetings/${m}/participants/${zed.id}/transcript`, { text: 'again' })).status).toBe(200);
    expect((await control('POST', `/meetings/${m}/participants/${zed.id}/transcript`, { text: 'x'.repeat(4001) })).status).toBe(400);
    const transcript = emu.deps.store.org(emu.orgId)!.sessions.values().next().value!.transcript;
    expect(transcript.map((l) => l.text)).toEqual([...Array.from({ length: 10 }, (_, i) => `line ${i}`), 'my turn', 'again']);
  });

  it('a page that joins late reads the 500 most recent lines the pages heard, counted without the lines they did not hear', async () => {
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' })).id;
    const zed = await addPerson(emu, m, 'Zed', 'transcribed_host');
    const bob = await addPerson(emu, m, 'Bob');
    const late = await addPerson(emu, m, 'Late', 'transcribed_host');
    await control('POST', `/meetings/${m}/participants/${zed.id}/join`);
    await control('POST', `/meetings/${m}/participants/${bob.id}/join`);
    // 501 lines heard (10 a second, the most a speaker says), then lines nobody heard.
    for (let i = 0; i < 501; i++) {
      if (i > 0 && i % 10 === 0) await emu.advance(1000);
      expect((await control('POST', `/meetings/${m}/participants/${zed.id}/transcript`, { text: `line ${i}` })).status).toBe(200);
    }
    for (let i = 0; i < 3; i++)
      expect((await control('POST', `/meetings/${m}/participants/${bob.id}/transcript`, { text: `aside ${i}` })).body).toMatchObject({ live: false });

    const sdkHost = `api.localhost:${new URL(emu.tlsUrl!).port}`;
    const res = await onSdkHost(sdkHost, `/v2/meetings/${m}/active-transcript`, late.token);
    const link = new URL((JSON.parse(res.body) as { data: { transcript_download_url: string } }).data.transcript_download_url);
    const lines = (await (await fetch(`${emu.url}${link.pathname}${link.search}`)).text()).split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(500);
    expect(lines[0]).toBe(`${EPOCH},${zed.id},${zed.id},zed,Zed,line 1`);
    expect(lines.at(-1)).toBe(`${EPOCH + 50},${zed.id},${zed.id},zed,Zed,line 500`);
  });

  it('the partials of a line: growing prefixes, at most three, none for a single word', () => {
    expect(partialsOf('one')).toEqual([]);
    expect(partialsOf('one two')).toEqual(['one']);
    expect(partialsOf('a b c d e f g h')).toEqual(['a b', 'a b c d', 'a b c d e f']);
  });
});
