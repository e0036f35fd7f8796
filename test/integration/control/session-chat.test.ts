// A scripted participant's images and files in the chat (POST …/chat/file: the body is the file),
// and the read of a session's chat and polls the dashboard shows (GET /_emulator/meetings/{id}/chat
// and …/polls): whom a private message is for, which channel, an image's or file's path on the
// emulator. Refusals answer in the API's shape and keep nothing: no message, no file.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { CHAT_FILE_LIMITS } from '../../../src/domain/sessions/chat-files.js';
import { PRESETS, addParticipant, createMeeting } from '../../helpers/builders.js';
import { BASIC, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const UUID = /^[0-9a-f-]{36}$/;

let t: TestApp;
let meetingId: string;
let ada: { id: string };
let bob: { id: string };
let vic: { id: string };

const base = () => `/_emulator/meetings/${meetingId}/participants`;
const join = (id: string) => t.api.post(`${base()}/${id}/join`).expect(200);
const health = async () => (await t.api.get('/_emulator/health').expect(200)).body.chat_files as { files: number; bytes: number };
const chat = async (query = '') => (await t.api.get(`/_emulator/meetings/${meetingId}/chat${query}`).expect(200)).body;

function sendFile(participantId: string, query: string, bytes: Buffer | undefined, type?: string): request.Test {
  const req = t.api.post(`${base()}/${participantId}/chat/file${query}`);
  if (type) req.set('content-type', type);
  return bytes === undefined ? req : req.send(bytes);
}

beforeEach(async () => {
  t = makeTestApp();
  meetingId = (await createMeeting(t.api, { title: 'Files' })).id;
  ada = await addParticipant(t.api, meetingId, { name: 'Ada', preset_name: PRESETS.host.name, custom_participant_id: 'ada' });
  bob = await addParticipant(t.api, meetingId, { name: 'Bob', preset_name: PRESETS.participant.name, custom_participant_id: 'bob' });
  vic = await addParticipant(t.api, meetingId, { name: 'Vic', preset_name: 'webinar_viewer', custom_participant_id: 'vic' });
});

describe("a scripted participant's image or file", () => {
  it('a PNG goes as an image message linked on the TLS listener; its path serves the bytes; counted in the health', async () => {
    await join(ada.id);
    const res = await sendFile(ada.id, '?name=cat.png', PNG, 'image/png').expect(200);
    expect(res.body).toMatchObject({
      participant_id: ada.id,
      display_name: 'Ada',
      payload_type: 'IMAGE_MESSAGE',
      file: { name: 'cat.png', size: null },
      to: [],
      channel: null,
      pinned: false,
      edited_at: null,
    });
    expect(res.body.id).toMatch(UUID);
    expect(res.body.payload).toMatch(/^https:\/\/localhost:4443\/media\/chat-files\/[0-9a-f-]{36}\/cat\.png\?expires=\d+&signature=/);
    expect(res.body.file.path).toBe(res.body.payload.slice('https://localhost:4443'.length));
    const read = await request(t.app).get(res.body.file.path).responseType('blob').expect(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.body).toEqual(PNG);
    expect(await health()).toEqual({ files: 1, bytes: PNG.length });
  });

  it('anything else goes as a file message ({link, name, size}), privately with `to`; the REST chat export has it', async () => {
    await join(ada.id);
    await join(bob.id);
    const pdf = Buffer.from('%PDF-1.4 minutes');
    const res = await sendFile(ada.id, `?name=${encodeURIComponent('Minutes 1.pdf')}&to=${bob.id}`, pdf, 'application/pdf').expect(200);
    expect(res.body).toMatchObject({ payload_type: 'FILE_MESSAGE', to: [bob.id], file: { name: 'Minutes 1.pdf', size: pdf.length } });
    const payload = JSON.parse(res.body.payload) as { link: string; name: string; size: number };
    expect(payload).toEqual({ link: `https://localhost:4443${res.body.file.path}`, name: 'Minutes 1.pdf', size: pdf.length });
    expect((await request(t.app).get(res.body.file.path).responseType('blob').expect(200)).body.toString()).toBe('%PDF-1.4 minutes');
    // A name at its limit.
    const long = 'n'.repeat(CHAT_FILE_LIMITS.nameChars);
    expect((await sendFile(ada.id, `?name=${long}`, pdf, 'application/pdf').expect(200)).body.file.name).toBe(long);
    // Without a Content-Type, a file of no known type.
    const plain = await sendFile(bob.id, '?name=notes', Buffer.from('plain')).expect(200);
    expect(plain.body.payload_type).toBe('FILE_MESSAGE');
    expect((await request(t.app).get(plain.body.file.path).expect(200)).headers['content-type']).toBe('application/octet-stream');
  });

  it('refusals keep neither a message nor a file', async () => {
    await join(ada.id);
    await join(vic.id);
    const before = await chat();
    const refused = async (res: request.Response, status: number, message: string | RegExp) => {
      expect(res.status).toBe(status);
      expect(res.body.error.message).toMatch(message);
      expect(await health()).toEqual({ files: 0, bytes: 0 });
      expect(await chat()).toEqual(before);
    };
    // Not in the meeting, a private message to one who is not in it, a preset that may not send files.
    await refused(await sendFile(bob.id, '?name=cat.png', PNG, 'image/png'), 409, `Participant ${bob.id} is not in meeting ${meetingId}`);
    await refused(await sendFile(ada.id, `?name=cat.png&to=${bob.id}`, PNG, 'image/png'), 409, `Participant ${bob.id} is not in meeting ${meetingId}`);
    await refused(
      await sendFile(vic.id, '?name=cat.png', PNG, 'image/png'),
      403,
      'Preset webinar_viewer may not send public files or images (permissions.chat.public.files is false)',
    );
    // Bad requests: no name, an empty body, a malformed `to`, a type too long, over the size limit; unknown ids.
    await refused(await sendFile(ada.id, '', PNG, 'image/png'), 400, /name/);
    await refused(await sendFile(ada.id, '?name=empty.png', undefined, 'image/png'), 400, "The request's body is the file's bytes; it was empty");
    await refused(await sendFile(ada.id, '?name=cat.png&to=bob', PNG, 'image/png'), 400, /participant ids, comma-separated/);
    await refused(await sendFile(ada.id, '?name=cat.png', PNG, `image/${'x'.repeat(255)}`), 400, 'A Content-Type of at most 255 characters');
    await refused(
      await sendFile(ada.id, '?name=big.bin', Buffer.alloc(CHAT_FILE_LIMITS.fileBytes + 1), 'application/octet-stream'),
      413,
      'Request body exceeds the limit of 10mb',
    );
    await refused(await sendFile(ada.id, `?name=${'n'.repeat(CHAT_FILE_LIMITS.nameChars + 1)}`, PNG, 'image/png'), 400, /name/);
    const ids = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    await refused(await sendFile(ada.id, `?name=cat.png&to=${ids.join(',')}`, PNG, 'image/png'), 400, /to/);
    await refused(
      await t.api.post(`/_emulator/meetings/${meetingId}/participants/00000000-0000-4000-8000-00000000dead/chat/file?name=a`).send(PNG),
      404,
      /participant/,
    );
  });
});

describe("the read of a session's chat", () => {
  it('lists the newest messages oldest first: text, private with its recipients, images and files with their paths', async () => {
    expect((await t.api.get(`/_emulator/meetings/${meetingId}/chat`).expect(404)).body.error.message).toBe(`Meeting ${meetingId} has had no session yet`);
    await join(ada.id);
    await join(bob.id);
    await t.api.post(`${base()}/${ada.id}/chat`).send({ message: 'hello all' }).expect(200);
    await t.api
      .post(`${base()}/${bob.id}/chat`)
      .send({ message: 'just you', to: [ada.id] })
      .expect(200);
    const image = (await sendFile(ada.id, '?name=cat.png', PNG, 'image/png').expect(200)).body;
    const all = await chat();
    expect(all.session_id).toMatch(UUID);
    expect(all.total).toBe(3);
    expect(all.messages.map((m: { display_name: string; payload_type: string; to: string[] }) => [m.display_name, m.payload_type, m.to])).toEqual([
      ['Ada', 'TEXT_MESSAGE', []],
      ['Bob', 'TEXT_MESSAGE', [ada.id]],
      ['Ada', 'IMAGE_MESSAGE', []],
    ]);
    expect(all.messages[0]).toMatchObject({ payload: 'hello all', file: null });
    expect(all.messages[2]).toEqual(image);
    // The newest two; the session ended, the read still gives its chat.
    const newest = await chat('?limit=2');
    expect(newest.total).toBe(3);
    expect(newest.messages.map((m: { id: string }) => m.id)).toEqual(all.messages.slice(1).map((m: { id: string }) => m.id));
    await t.api.post(`${base()}/${ada.id}/leave`).expect(200);
    await t.api.post(`${base()}/${bob.id}/leave`).expect(200);
    expect((await chat()).messages).toEqual(all.messages);
    for (const limit of ['0', '1001', 'x']) await t.api.get(`/_emulator/meetings/${meetingId}/chat?limit=${limit}`).expect(400);
  });

  it("an image linked elsewhere has no path: the dashboard does not load another site's link, however odd", async () => {
    await join(ada.id);
    const own = (await sendFile(ada.id, '?name=cat.png', PNG, 'image/png').expect(200)).body.file.path as string;
    const links = [
      'https://example.test/cat.png',
      // Not percent-encoded as a path may be.
      'https://example.test/media/chat-files/x/%ZZ',
    ];
    const meeting = t.deps.services.sessions.locateMeeting(meetingId);
    // The emulator's file id under another name is no link a page could read: refused.
    expect(() =>
      t.deps.services.sessionHistory.sendChat(meeting, ada.id, { type: 'IMAGE_MESSAGE', payload: `https://example.test${own.replace('cat.png', 'dog.png')}` }),
    ).toThrow(/^No chat file found with id /);
    for (const link of links) t.deps.services.sessionHistory.sendChat(meeting, ada.id, { type: 'IMAGE_MESSAGE', payload: link });
    const read = await chat();
    expect(read.messages.slice(1).map((m: { file: unknown }) => m.file)).toEqual(links.map((name) => ({ name, size: null, path: null })));
    // The emulator's own file keeps its path whatever host the link names (a page's link names the host it called).
    t.deps.services.sessionHistory.sendChat(meeting, ada.id, { type: 'IMAGE_MESSAGE', payload: `https://api.elsewhere.test:8443${own}` });
    expect((await chat()).messages.at(-1).file).toEqual({ name: 'cat.png', size: null, path: own });
  });

  it('polls: the same session, as production shows a poll', async () => {
    await join(ada.id);
    const poll = await request(t.app)
      .post(`/v2/meetings/${meetingId}/active-session/poll`)
      .set('Authorization', BASIC)
      .send({ question: 'Lunch?', options: ['Yes', 'No'] })
      .expect(201);
    await t.api.post(`${base()}/${ada.id}/polls/${poll.body.data.poll.id}/vote`).send({ option: 1 }).expect(200);
    const read = (await t.api.get(`/_emulator/meetings/${meetingId}/polls`).expect(200)).body;
    expect(read.session_id).toBe((await chat()).session_id);
    expect(read.polls[0].options).toEqual([
      { text: 'Yes', count: 0, votes: [] },
      { text: 'No', count: 1, votes: [{ id: ada.id, name: 'Ada' }] },
    ]);
  });
});
