// The reads behind the browser: the landing page (HTML for a browser, JSON for an API client),
// an organization's overview, and the exact request a delivery sends, whose signature verifies
// with the published key. Every answer is checked against the served OpenAPI document.
import { createVerify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { addParticipant, createLivestream, createMeeting, MISSING_ID, startRecording } from '../../helpers/builders.js';
import { BASIC, ORG_ID, START_ISO, makeTestApp } from '../../helpers/test-app.js';
import { SECOND_ORG_ID, SECOND_ORG_KEY, twoOrgFixtures } from '../../helpers/v1-helpers.js';
import { RecordingTransport } from '../../../src/webhooks/recording-transport.js';

describe('GET /', () => {
  it('answers an API client (Accept: application/json, or anything) with where everything is, and no API key', async () => {
    const t = makeTestApp();
    for (const accept of ['application/json', '*/*']) {
      const res = await t.api.get('/').set('Accept', accept).expect(200);
      expect(res.body).toEqual({
        name: 'meetings-emulator',
        version: expect.any(String),
        clock: { now: START_ISO, mode: 'manual' },
        organizations: 1,
        links: {
          dashboard: 'http://emulator.test/_emulator/ui',
          openapi: 'http://emulator.test/_emulator/openapi.json',
          events: 'http://emulator.test/_emulator/events',
          health: 'http://emulator.test/_emulator/health',
          docs: 'http://emulator.test/_emulator/docs/dashboard.md',
        },
      });
      expect(JSON.stringify(res.body)).not.toContain('emulator-api-key');
    }
  });

  it('answers a browser with a page that links the dashboard and folds the fixture credentials away until asked', async () => {
    const t = makeTestApp();
    const res = await t.api.get('/').set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('href="/_emulator/ui"');
    expect(res.text).toContain('href="/_emulator/openapi.json"');
    expect(res.text).toMatch(/<details><summary>Show the API key[^<]*<\/summary>\s*<p>API key: <code>emulator-api-key<\/code>/);
    expect(res.text).toContain(ORG_ID);
  });

  it('gives a browser the v2 Authorization header of each fixture organization (as the README shows it), one per line, and varies on Accept', async () => {
    const t = makeTestApp({}, { fixtures: twoOrgFixtures() });
    const res = await t.api.get('/').set('Accept', 'text/html').expect(200);
    expect(res.headers.vary).toBe('accept');
    expect(res.text).toContain('<code>Authorization: Basic MDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAxOmVtdWxhdG9yLWFwaS1rZXk=</code>');
    expect(res.text).toContain(`API key: <code>${SECOND_ORG_KEY}</code>`);
    expect(res.text).toMatch(/<\/details><\/li>\n<li><strong>Second Org<\/strong>/);
  });

  it('shows an organization name from the fixtures as text, escaped, never as markup', async () => {
    const f = twoOrgFixtures();
    f.organizations[1]!.name = `<b>R&D "Tom's"</b>`;
    const t = makeTestApp({}, { fixtures: f });
    const res = await t.api.get('/').set('Accept', 'text/html').expect(200);
    expect(res.text).toContain('<strong>&#60;b&#62;R&#38;D &#34;Tom&#39;s&#34;&#60;/b&#62;</strong>');
    expect(res.text).not.toContain('<b>R&D');
  });

  it('lists no fixture organization that an imported state no longer has', async () => {
    const t = makeTestApp({}, { fixtures: twoOrgFixtures() });
    const state = (await t.api.get('/_emulator/state').expect(200)).body as { organizations: { id: string }[] };
    state.organizations = state.organizations.filter((o) => o.id !== SECOND_ORG_ID);
    await t.api.put('/_emulator/state').set('content-type', 'application/json').send(state).expect(200, { status: 'imported', organizations: 1 });
    const res = await t.api.get('/').set('Accept', 'text/html').expect(200);
    expect(res.text).toContain(ORG_ID);
    expect(res.text).not.toContain('Second Org');
    expect(res.text).not.toContain(SECOND_ORG_KEY);
  });

  it('lists no organization made at run time: its key was shown once, when it was made', async () => {
    const t = makeTestApp();
    const org = (await t.api.post('/_emulator/orgs').send({ name: 'worker-9' }).expect(201)).body as { api_key: string };
    const res = await t.api.get('/').set('Accept', 'text/html').expect(200);
    expect(res.text).not.toContain(org.api_key);
    expect(res.text).not.toContain('worker-9');
  });
});

describe('GET /_emulator/docs/{file}', () => {
  it('serves a documentation page of the package, and nothing outside docs/', async () => {
    const t = makeTestApp();
    const res = await t.api.get('/_emulator/docs/dashboard.md').expect(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toMatch(/^# The dashboard/);
    const missing = await t.api.get('/_emulator/docs/nothing.md').expect(404);
    expect(missing.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No documentation page nothing.md' } });
    await t.api.get('/_emulator/docs/..%2Fpackage.json').expect(400);
  });
});

describe('GET /_emulator/ui/assets/{file}', () => {
  it.each(['..%2F..%2Fpackage.json', '.inputs-hash', 'main.ts', 'x.exe'])('refuses %s (404): only the build’s own files are served', async (file) => {
    const t = makeTestApp();
    await t.api.get(`/_emulator/ui/assets/${file}`).expect(404);
  });

  it.each([
    ['a%2Fb.js', 'a/b.js'],
    ['%2e%2e', '..'],
    ['.hidden.js', '.hidden.js'],
    ['x.js.map%3F', 'x.js.map?'],
    ['x%20y.js', 'x y.js'],
    ['main.ts', 'main.ts'],
    ['x%2F..%2F..%2F..%2Fpackage.json', 'x/../../../package.json'],
    ['nothing-here.js', 'nothing-here.js'],
  ])('answers %s with 404 "The dashboard has no file <name>", never a file outside the build', async (file, name) => {
    const t = makeTestApp();
    const res = await t.api.get(`/_emulator/ui/assets/${file}`).expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: `The dashboard has no file ${name}` } });
  });
});

// A stand-in of the build (what `npm run build` writes: each file beside its .br and .gz copies),
// so that these answers are pinned whether or not this tree has a built dashboard.
const PAGE = '<!doctype html><title>Emulator</title><script type="module" src="assets/main.js"></script>\n'.repeat(8);
const ENTRY = 'import("./chunk-ABCD1234.js");\n'.repeat(16);
function standInBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-build-'));
  const files: Record<string, string> = {
    'index.html': PAGE,
    'main.js': ENTRY,
    'main.css': 'body{margin:0}',
    'chunk-ABCD1234.js': 'export const x=1;',
    'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'data-ABCD1234.json': '{}',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  writeFileSync(path.join(dir, 'index.html.gz'), gzipSync(PAGE));
  writeFileSync(path.join(dir, 'index.html.br'), brotliCompressSync(PAGE));
  // main.js has only a gzip copy: a client asking for br gets the plain file.
  writeFileSync(path.join(dir, 'main.js.gz'), gzipSync(ENTRY));
  return dir;
}
const BUILD = standInBuild();
const NOT_BUILT = mkdtempSync(path.join(tmpdir(), 'dashboard-not-built-'));
afterAll(() => {
  rmSync(BUILD, { recursive: true, force: true });
  rmSync(NOT_BUILT, { recursive: true, force: true });
});

/** The body as bytes, whatever its type (supertest still decodes a compressed one). */
function raw(test: request.Test): request.Test {
  return test.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

describe('GET /_emulator/ui', () => {
  it('says how to build the dashboard when it is not built (404)', async () => {
    const t = makeTestApp({ uiDir: NOT_BUILT });
    const res = await t.api.get('/_emulator/ui').expect(404);
    expect(res.body).toEqual({
      error: { code: 'NOT_FOUND', message: 'The dashboard is not built: run `npm run build` (or `npm start`, which builds it)' },
    });
    const asset = await t.api.get('/_emulator/ui/assets/main.js').expect(404);
    expect(asset.body).toEqual({ error: { code: 'NOT_FOUND', message: 'The dashboard has no file main.js' } });
  });

  it('serves the built page as sent by the build, checked on every load (no-cache), varying on Accept-Encoding', async () => {
    const t = makeTestApp({ uiDir: BUILD });
    const res = await raw(request(t.app).get('/_emulator/ui').set('Accept-Encoding', 'identity')).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(PAGE)));
    expect((res.body as Buffer).toString()).toBe(PAGE);
  });

  it.each([
    { accept: 'br', file: 'index.html.br', encoding: 'br' },
    { accept: 'gzip, deflate, br', file: 'index.html.br', encoding: 'br' },
    { accept: 'gzip', file: 'index.html.gz', encoding: 'gzip' },
    { accept: 'deflate, gzip;q=0.5', file: 'index.html.gz', encoding: 'gzip' },
    { accept: 'deflate', file: 'index.html', encoding: undefined },
    { accept: 'xbr, gzipped', file: 'index.html', encoding: undefined },
    { accept: undefined, file: 'index.html', encoding: undefined },
  ])('Accept-Encoding $accept: sends $file', async ({ accept, file, encoding }) => {
    const t = makeTestApp({ uiDir: BUILD });
    const test = request(t.app).get('/_emulator/ui');
    // supertest sends "gzip, deflate" unless told otherwise; undefined leaves the header out.
    test.unset('Accept-Encoding');
    if (accept) test.set('Accept-Encoding', accept);
    const res = await raw(test).expect(200);
    const bytes = readFileSync(path.join(BUILD, file));
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    // supertest decodes br and gzip: the length above says which copy came, the text that it is the page.
    expect((res.body as Buffer).toString()).toBe(PAGE);
  });

  it('sends the plain file when the build has no copy in the encoding asked for', async () => {
    const t = makeTestApp({ uiDir: BUILD });
    const res = await raw(request(t.app).get('/_emulator/ui/assets/main.js').set('Accept-Encoding', 'br')).expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((res.body as Buffer).toString()).toBe(ENTRY);
  });

  it.each([
    ['main.js', 'text/javascript; charset=utf-8', 'no-cache'],
    ['main.css', 'text/css; charset=utf-8', 'no-cache'],
    ['logo.svg', 'image/svg+xml', 'no-cache'],
    ['chunk-ABCD1234.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    // Only a chunk, whose name ends in its hash and .js, is kept for ever.
    ['data-ABCD1234.json', 'application/json; charset=utf-8', 'no-cache'],
  ])('serves assets/%s as %s, cached: %s', async (file, type, cache) => {
    const t = makeTestApp({ uiDir: BUILD });
    const res = await request(t.app).get(`/_emulator/ui/assets/${file}`).set('Accept-Encoding', 'identity').expect(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['cache-control']).toBe(cache);
    expect(res.headers['content-length']).toBe(String(readFileSync(path.join(BUILD, file)).length));
  });

  it('answers HEAD with the headers of the page and no body', async () => {
    const t = makeTestApp({ uiDir: BUILD });
    const res = await raw(request(t.app).head('/_emulator/ui').set('Accept-Encoding', 'identity')).expect(200);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(PAGE)));
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((res.body as Buffer | undefined)?.length ?? 0).toBe(0);
  });
});

describe('GET /_emulator/orgs/{id}/overview', () => {
  it("shows an organization's meetings with participants and presence (no token), session, recordings and livestreams", async () => {
    const t = makeTestApp();
    const meeting = await createMeeting(t.api, { title: 'Overview' });
    const host = await addParticipant(t.api, meeting.id, { name: 'Ada' });
    await t.api.post(`/_emulator/meetings/${meeting.id}/participants/${host.id}/join`).expect(200);
    const recording = await startRecording(t.api, meeting.id);
    const livestream = await createLivestream(t.api, meeting.id, { name: 'live' });

    const res = await t.api.get(`/_emulator/orgs/${ORG_ID}/overview`).expect(200);
    expect(res.body.organization).toEqual({ id: ORG_ID, name: expect.any(String), account_id: '00000000000000000000000000000001' });
    expect(res.body.meetings_total).toBe(1);
    const [m] = res.body.meetings;
    expect(m).toMatchObject({
      id: meeting.id,
      title: 'Overview',
      session: { id: expect.any(String), started_at: START_ISO, ended_at: null },
      participants: [{ id: host.id, name: 'Ada', joined_at: START_ISO }],
      recordings: [{ id: recording.id, status: 'INVOKED' }],
      livestreams: [{ id: livestream.id, name: 'live' }],
    });
    expect(JSON.stringify(res.body)).not.toContain(host.token);
    expect(JSON.stringify(res.body)).not.toContain(livestream.stream_key as string);
    expect(res.body.meetings[0].livestreams[0]).not.toHaveProperty('stream_key');
  });

  it('lists every session of a meeting, newest first, with its end reason and counts (no text, no token)', async () => {
    const t = makeTestApp();
    const meeting = await createMeeting(t.api, { title: 'Twice' });
    const ada = await addParticipant(t.api, meeting.id, { name: 'Ada' });
    const bob = await addParticipant(t.api, meeting.id, { name: 'Bob' });
    const base = `/_emulator/meetings/${meeting.id}/participants`;
    // First session: both join, Ada says two things in the chat and one line aloud, then both leave.
    await t.api.post(`${base}/${ada.id}/join`).expect(200);
    await t.api.post(`${base}/${bob.id}/join`).expect(200);
    await t.api.post(`${base}/${ada.id}/chat`).send({ message: 'secret plan' }).expect(200);
    await t.api.post(`${base}/${ada.id}/chat`).send({ message: 'second' }).expect(200);
    await t.api.post(`${base}/${ada.id}/transcript`).send({ text: 'hello all' }).expect(200);
    t.advance(60_000);
    await t.api.post(`${base}/${ada.id}/leave`).expect(200);
    await t.api.post(`${base}/${bob.id}/leave`).expect(200);
    // Second session, still live: Bob alone, one transcript line.
    t.advance(60_000);
    await t.api.post(`${base}/${bob.id}/join`).expect(200);
    await t.api.post(`${base}/${bob.id}/transcript`).send({ text: 'anyone?' }).expect(200);

    const res = await t.api.get(`/_emulator/orgs/${ORG_ID}/overview`).expect(200);
    const [m] = res.body.meetings;
    const firstEnd = new Date(Date.parse(START_ISO) + 60_000).toISOString();
    const secondStart = new Date(Date.parse(START_ISO) + 120_000).toISOString();
    expect(m.sessions).toEqual([
      {
        id: m.session.id,
        started_at: secondStart,
        ended_at: null,
        end_reason: null,
        participant_count: 1,
        chat_message_count: 0,
        transcript_line_count: 1,
      },
      {
        id: expect.any(String),
        started_at: START_ISO,
        ended_at: firstEnd,
        end_reason: 'ALL_PARTICIPANTS_LEFT',
        participant_count: 2,
        chat_message_count: 2,
        transcript_line_count: 1,
      },
    ]);
    expect(m.sessions[1].id).not.toBe(m.sessions[0].id);
    const text = JSON.stringify(res.body);
    for (const hidden of ['secret plan', 'hello all', ada.token, bob.token]) expect(text).not.toContain(hidden);
  });

  it('keeps organizations apart, and answers 404 for an unknown one and 400 for a malformed id', async () => {
    const t = makeTestApp();
    await createMeeting(t.api, { title: 'Mine' });
    const other = (await t.api.post('/_emulator/orgs').send({ name: 'other' }).expect(201)).body as { id: string };
    expect((await t.api.get(`/_emulator/orgs/${other.id}/overview`).expect(200)).body.meetings).toEqual([]);
    await t.api.get(`/_emulator/orgs/${MISSING_ID}/overview`).expect(404);
    await t.api.get('/_emulator/orgs/not-a-uuid/overview').expect(400);
  });
});

describe('GET /_emulator/webhooks/deliveries/{id}/request', () => {
  it('shows the headers and raw body every attempt sends; the signature verifies with /.well-known/webhooks.json', async () => {
    const t = makeTestApp();
    const transport = new RecordingTransport();
    t.deps.webhooks.outbox.useTransport(transport);
    await t.api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ name: 'h', url: 'https://receiver.test/hook', events: ['meeting.started'] })
      .expect(201);
    const meeting = await createMeeting(t.api);
    const p = await addParticipant(t.api, meeting.id);
    await t.api.post(`/_emulator/meetings/${meeting.id}/participants/${p.id}/join`).expect(200);
    await t.deps.webhooks.outbox.idle();
    const [delivery] = (await t.api.get('/_emulator/webhooks/deliveries').expect(200)).body.deliveries as Array<{ id: string; webhook_id: string }>;

    const res = await t.api.get(`/_emulator/webhooks/deliveries/${delivery!.id}/request`).expect(200);
    const sent = transport.requests[0]!;
    expect(res.body).toEqual({ url: 'https://receiver.test/hook', headers: sent.headers, body: sent.body.toString('utf8') });
    expect(res.body.headers).toMatchObject({ 'dyte-uuid': delivery!.id, 'dyte-webhook-id': delivery!.webhook_id });
    const { public_key } = (await t.api.get('/.well-known/webhooks.json').expect(200)).body as { public_key: string };
    const verifier = createVerify('sha256').update(Buffer.from(res.body.body as string, 'utf8'));
    expect(verifier.verify(public_key, res.body.headers['dyte-signature'] as string, 'base64')).toBe(true);
    await t.api.get(`/_emulator/webhooks/deliveries/${MISSING_ID}/request`).expect(404);
  });
});
