// The images and files pages send in chat: where the SDKs ask to upload (RealtimeKit's
// POST /v2/meetings/chat-upload, web-core's POST /v1/meetings/genPreSignedUploadUrl, on the api
// host), the PUT of the bytes to the upload link and their reading back from the read link, the
// limits (10 MiB a file, 100 MiB in all), links that expire or are forged, another meeting's
// upload, and a reset or an organization's reset forgetting them. Refusals are in the API's error
// shape and store nothing.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { CHAT_FILE_LIMITS } from '../../../src/domain/sessions/chat-files.js';
import { PRESETS, addParticipant, createMeeting } from '../../helpers/builders.js';
import { ORG_ID, bearer, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const BASE = 'localhost:4443';
const MIB = 1024 * 1024;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let t: TestApp;
let meetingId: string;
let ada: { id: string; token: string };

beforeEach(async () => {
  t = makeTestApp();
  meetingId = (await createMeeting(t.api, { title: 'Files' })).id;
  ada = await addParticipant(t.api, meetingId, { name: 'Ada', preset_name: PRESETS.host.name, custom_participant_id: 'ada' });
});

/** A request on the SDK's api host (the Host header a page sends to the TLS listener). */
function onApi(method: 'post', path: string): request.Test {
  return request(t.app)[method](path).set('Host', `api.${BASE}`);
}

/** A link's path and query, to call on the app (the link's origin is the api host the page asked). */
function local(link: string): string {
  const u = new URL(link);
  expect(u.origin).toBe(`http://api.${BASE}`);
  return `${u.pathname}${u.search}`;
}

async function rtkLinks(filename = 'cat.png', roomUUID = meetingId, token = ada.token): Promise<{ get: string; put: string }> {
  const res = await onApi('post', '/v2/meetings/chat-upload').set('Authorization', bearer(token)).send({ roomUUID, filename }).expect(200);
  expect(Object.keys(res.body.data).sort()).toEqual(['get_location', 'put_location']);
  return { get: res.body.data.get_location, put: res.body.data.put_location };
}

const health = async () => (await request(t.app).get('/_emulator/health').expect(200)).body.chat_files as { files: number; bytes: number };

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('an upload', () => {
  it("RealtimeKit's: the links, the PUT with the file's type, the bytes read back with it; counted in the health", async () => {
    const links = await rtkLinks('cat.png');
    expect(links.get).toMatch(new RegExp(`^http://api\\.${BASE}/media/chat-files/[0-9a-f-]{36}/cat\\.png\\?expires=\\d+&signature=`));
    expect(links.put).toMatch(new RegExp(`^http://api\\.${BASE}/media/chat-uploads/[0-9a-f-]{36}/cat\\.png\\?expires=\\d+&signature=`));
    // Not there before it is uploaded.
    expect((await request(t.app).get(local(links.get)).expect(404)).body.error.code).toBe('NOT_FOUND');
    await request(t.app).put(local(links.put)).set('content-type', 'image/png').send(PNG).expect(200);
    const read = await request(t.app).get(local(links.get)).responseType('blob').expect(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.headers['content-disposition']).toBe(`inline; filename="cat.png"; filename*=UTF-8''cat.png`);
    expect(read.headers['content-security-policy']).toBe('sandbox');
    expect(read.body).toEqual(PNG);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    expect(await health()).toEqual({ files: 1, bytes: PNG.length });
  });

  it("web-core's: the same links in camelCase; a name with spaces and accents travels in the links", async () => {
    const res = await onApi('post', '/v1/meetings/genPreSignedUploadUrl')
      .set('Authorization', bearer(ada.token))
      .send({ roomUUID: meetingId, filename: 'Résumé final.pdf', viewType: 'GROUP_CALL' })
      .expect(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['getLocation', 'putLocation']);
    await request(t.app).put(local(res.body.data.putLocation)).set('content-type', 'application/pdf').send(Buffer.from('%PDF-1.4')).expect(200);
    const read = await request(t.app).get(local(res.body.data.getLocation)).responseType('blob').expect(200);
    // Not an image: it downloads, and never runs on the emulator's origin.
    expect(read.headers['content-disposition']).toBe(`attachment; filename="R_sum_ final.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20final.pdf`);
    expect(read.headers['x-content-type-options']).toBe('nosniff');
    expect(read.headers['content-security-policy']).toBe('sandbox');
    expect(read.body.toString()).toBe('%PDF-1.4');
  });

  it('is refused for another meeting (403), without a token (401), with an empty name (400): nothing is reserved', async () => {
    const other = (await createMeeting(t.api, { title: 'Other' })).id;
    const res = await onApi('post', '/v2/meetings/chat-upload')
      .set('Authorization', bearer(ada.token))
      .send({ roomUUID: other, filename: 'x.png' })
      .expect(403);
    expect(res.body).toEqual({
      success: false,
      error: { code: 403, message: `This participant token is for meeting ${meetingId}; it cannot upload files for ${other}` },
    });
    await onApi('post', '/v2/meetings/chat-upload').send({ roomUUID: meetingId, filename: 'x.png' }).expect(401);
    await onApi('post', '/v2/meetings/chat-upload').set('Authorization', bearer(ada.token)).send({ roomUUID: meetingId, filename: '' }).expect(400);
    expect(await health()).toEqual({ files: 0, bytes: 0 });
  });

  it('over 10 MiB is refused (413) and nothing is kept; a second PUT replaces the bytes', async () => {
    const links = await rtkLinks('big.bin');
    const big = await request(t.app)
      .put(local(links.put))
      .set('content-type', 'application/octet-stream')
      .send(Buffer.alloc(10 * MIB + 1))
      .expect(413);
    expect(big.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds the limit of 10mb' } });
    expect(await health()).toEqual({ files: 0, bytes: 0 });
    await request(t.app).get(local(links.get)).expect(404);
    await request(t.app).put(local(links.put)).set('content-type', 'text/plain').send(Buffer.from('one')).expect(200);
    await request(t.app).put(local(links.put)).set('content-type', 'text/plain').send(Buffer.from('second')).expect(200);
    expect(await health()).toEqual({ files: 1, bytes: 6 });
  });

  it('links are signed and expire: the upload link after an hour, the read link after 7 days (emulator clock); a forged one is refused', async () => {
    const links = await rtkLinks('cat.png');
    const forged = local(links.put).replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await request(t.app).put(forged).set('content-type', 'image/png').send(PNG).expect(403)).body.error.code).toBe('INVALID_SIGNATURE');
    // The read link does not upload.
    await request(t.app).put(local(links.get)).send(PNG).expect(405);
    t.advance(HOUR + 1);
    expect((await request(t.app).put(local(links.put)).set('content-type', 'image/png').send(PNG).expect(403)).body.error.code).toBe('LINK_EXPIRED');
    const again = await rtkLinks('cat.png');
    await request(t.app).put(local(again.put)).set('content-type', 'image/png').send(PNG).expect(200);
    t.advance(7 * DAY - 1);
    await request(t.app).get(local(again.get)).expect(200);
    t.advance(2);
    expect((await request(t.app).get(local(again.get)).expect(403)).body.error.code).toBe('LINK_EXPIRED');
  });

  it("a reset forgets every file, an organization's reset its own", async () => {
    const links = await rtkLinks('cat.png');
    await request(t.app).put(local(links.put)).set('content-type', 'image/png').send(PNG).expect(200);
    const org = (await request(t.app).post('/_emulator/orgs').send({ name: 'Other' }).expect(201)).body as { id: string };
    await request(t.app).post(`/_emulator/orgs/${org.id}/reset`).expect(200);
    await request(t.app).get(local(links.get)).expect(200);
    await request(t.app).post(`/_emulator/orgs/${ORG_ID}/reset`).expect(200);
    await request(t.app).get(local(links.get)).expect(404);
    expect(await health()).toEqual({ files: 0, bytes: 0 });

    meetingId = (await createMeeting(t.api, { title: 'Files' })).id;
    ada = await addParticipant(t.api, meetingId, { name: 'Ada', preset_name: PRESETS.host.name, custom_participant_id: 'ada' });
    const more = await rtkLinks('dog.png');
    await request(t.app).put(local(more.put)).set('content-type', 'image/png').send(PNG).expect(200);
    await request(t.app).post('/_emulator/reset').expect(200);
    expect(await health()).toEqual({ files: 0, bytes: 0 });
  });
});

describe('every bounded field at its limit and one over', () => {
  const x = (n: number) => 'x'.repeat(n);
  it.each([
    ['/v2/meetings/chat-upload', 'roomUUID', 100, 403],
    ['/v2/meetings/chat-upload', 'filename', 255, 200],
    ['/v2/meetings/chat-upload', 'viewType', 100, 200],
    ['/v1/meetings/genPreSignedUploadUrl', 'roomUUID', 100, 403],
    ['/v1/meetings/genPreSignedUploadUrl', 'filename', 255, 200],
    ['/v1/meetings/genPreSignedUploadUrl', 'viewType', 100, 200],
  ] as const)('POST api.<base>%s %s ≤ %d (at the limit: %d)', async (path, field, max, atLimit) => {
    const body = (n: number) => ({ roomUUID: meetingId, filename: 'a.png', [field]: x(n) });
    await onApi('post', path).set('Authorization', bearer(ada.token)).send(body(max)).expect(atLimit);
    const files = t.deps.services.chatFiles.counts();
    const over = await onApi('post', path)
      .set('Authorization', bearer(ada.token))
      .send(body(max + 1))
      .expect(400);
    expect(over.body).toEqual({
      success: false,
      error: { code: 400, message: `BAD_REQUEST: "${field}" length must be less than or equal to ${max} characters long` },
    });
    expect(t.deps.services.chatFiles.counts()).toEqual(files);
  });

  it.each([
    ['put', 'chat-uploads'],
    ['get', 'chat-files'],
  ] as const)('%s /media/%s: name ≤ 255, expires ≤ 32, signature ≤ 256 (at the limit: not the signed link, 403)', async (method, folder) => {
    const id = '00000000-0000-4000-8000-000000000abc';
    const call = (name: string, expires: string, signature: string) =>
      request(t.app)[method](`/media/${folder}/${id}/${encodeURIComponent(name)}?expires=${expires}&signature=${signature}`);
    const cases: [name: string, expires: string, signature: string, field: string, max: number][] = [
      [x(255), '1', 's', 'name', 255],
      ['a', '9'.repeat(32), 's', 'expires', 32],
      ['a', '1', x(256), 'signature', 256],
    ];
    for (const [name, expires, signature, field, max] of cases) {
      expect((await call(name, expires, signature).expect(403)).body.error.code).toBe('INVALID_SIGNATURE');
      const over =
        field === 'name' ? call(x(256), expires, signature) : field === 'expires' ? call(name, '9'.repeat(33), signature) : call(name, expires, x(257));
      expect((await over.expect(400)).body).toEqual({
        error: { code: 'BAD_REQUEST', message: `"${field}" length must be less than or equal to ${max} characters long` },
      });
    }
  });
});

describe('the limits of the store', () => {
  it('holds at most 100 MiB in all (413 past it, nothing kept) and 1000 files (409)', async () => {
    const files = t.deps.services.chatFiles;
    const orgId = ORG_ID;
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { id } = files.reserve(orgId, ada.id, meetingId, `f${i}`);
      files.upload(id, `f${i}`, 'application/octet-stream', Buffer.alloc(CHAT_FILE_LIMITS.fileBytes));
      ids.push(id);
    }
    expect(files.counts()).toEqual({ files: 10, bytes: 100 * MIB });
    const { id } = files.reserve(orgId, ada.id, meetingId, 'one more');
    expect(() => files.upload(id, 'one more', 'text/plain', Buffer.alloc(1))).toThrow(
      `The emulator holds at most 100 MiB of chat files (${100 * MIB} bytes now); a reset frees them`,
    );
    expect(files.counts()).toEqual({ files: 10, bytes: 100 * MIB });
    // Replacing a file's bytes counts only the difference.
    files.upload(ids[0]!, 'f0', 'text/plain', Buffer.alloc(1));
    expect(files.counts()).toEqual({ files: 10, bytes: 90 * MIB + 1 });
    for (let i = files.counts().files + 1; i < CHAT_FILE_LIMITS.files; i++) files.reserve(orgId, ada.id, meetingId, `r${i}`);
    expect(() => files.reserve(orgId, ada.id, meetingId, 'last')).toThrow('The emulator holds 1000 chat files, the most it keeps; a reset frees them');
    // A reservation nothing was uploaded to holds its place only while its upload link lasts.
    t.advance(HOUR - 1);
    expect(() => files.reserve(orgId, ada.id, meetingId, 'last')).toThrow('The emulator holds 1000 chat files, the most it keeps; a reset frees them');
    t.advance(1);
    files.reserve(orgId, ada.id, meetingId, 'last');
    // The uploaded files stay.
    expect(files.counts()).toEqual({ files: 10, bytes: 90 * MIB + 1 });
    expect(files.download(ids[1]!, 'f1').bytes).toHaveLength(CHAT_FILE_LIMITS.fileBytes);
  });
});
