import { describe, expect, it } from 'vitest';
import { BASIC, START, START_ISO, basicAuth, fixtures, makeTestApp } from '../../helpers/test-app.js';
import { MISSING_ID, createMeeting, v2Error } from '../../helpers/builders.js';

const iso = (ms: number) => new Date(ms).toISOString();

// Production types recording_config and ai_config as objects: a meeting without them shows the
// documented defaults of each field.
const DEFAULT_RECORDING_CONFIG = {
  max_seconds: 86_400,
  video_config: { codec: 'H264', width: 1280, height: 720, export_file: true },
  audio_config: { codec: 'AAC', channel: 'stereo', export_file: true },
  storage_config: null,
  dyte_bucket_config: { enabled: true },
};
const DEFAULT_AI_CONFIG = {
  transcription: { keywords: [], language: 'en-US', profanity_filter: false },
  summarization: { word_limit: 500, text_format: 'markdown', summary_type: 'general' },
};

describe('POST /v2/meetings', () => {
  it('creates a meeting with defaults and answers 201 in the envelope', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/meetings').set('Authorization', BASIC).send({ title: 'Standup', preferred_region: 'eu-central-1' }).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        title: 'Standup',
        preferred_region: 'eu-central-1',
        waiting_room: false,
        record_on_start: false,
        live_stream_on_start: false,
        persist_chat: false,
        summarize_on_end: false,
        status: 'ACTIVE',
        recording_config: DEFAULT_RECORDING_CONFIG,
        ai_config: DEFAULT_AI_CONFIG,
        created_at: START_ISO,
        updated_at: START_ISO,
      },
    });
  });

  it('needs no body at all', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/meetings').set('Authorization', BASIC).expect(201);
    // No title: left out (production's title is a string, never null).
    expect(res.body.data).not.toHaveProperty('title');
    expect(res.body.data).toMatchObject({ preferred_region: null, status: 'ACTIVE' });
  });

  it('accepts every documented field and echoes them', async () => {
    const { api } = makeTestApp();
    const body = {
      title: 'All hands',
      preferred_region: 'ap-south-1',
      record_on_start: true,
      live_stream_on_start: true,
      waiting_room: true,
      persist_chat: true,
      summarize_on_end: true,
      status: 'INACTIVE',
      recording_config: { max_seconds: 600, video_config: { codec: 'H264' } },
      ai_config: { transcription: { language: 'de' }, summarization: { summary_type: 'daily_standup' } },
    };
    const res = await api.post('/v2/meetings').set('Authorization', BASIC).send(body).expect(201);
    expect(res.body.data).toEqual({ ...body, id: expect.any(String), created_at: START_ISO, updated_at: START_ISO });
  });

  it('ignores fields it does not know', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/meetings').set('Authorization', BASIC).send({ title: 'x', colour: 'blue' }).expect(201);
    expect(res.body.data).not.toHaveProperty('colour');
  });

  it.each([
    [{ title: 5 }, 'BAD_REQUEST: "title" must be a string'],
    [{ title: 'x'.repeat(1025) }, 'BAD_REQUEST: "title" length must be less than or equal to 1024 characters long'],
    [{ preferred_region: 'mars-1' }, 'BAD_REQUEST: "preferred_region" must be one of [ap-south-1, ap-southeast-1, us-east-1, eu-central-1]'],
    [{ record_on_start: 'yes' }, 'BAD_REQUEST: "record_on_start" must be a boolean'],
    [{ live_stream_on_start: 1 }, 'BAD_REQUEST: "live_stream_on_start" must be a boolean'],
    [{ status: 'ENDED' }, 'BAD_REQUEST: "status" must be one of [ACTIVE, INACTIVE]'],
    [{ recording_config: 'big' }, 'BAD_REQUEST: "recording_config" must be of type object'],
  ])('rejects %j with 400 and creates nothing', async (body, message) => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/meetings').set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    const list = await api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(list.body.paging.total_count).toBe(0);
  });

  it.each([
    ['no header', undefined, 'Missing Authorization header'],
    ['wrong key', basicAuth(undefined, 'nope'), 'Invalid organization id or API key'],
    ['unknown org', basicAuth('00000000-0000-4000-8000-000000000999'), 'Invalid organization id or API key'],
    // An empty user-id is well-formed Basic (the colon is there): the credentials are wrong, not malformed.
    ['an empty organization id', basicAuth(''), 'Invalid organization id or API key'],
    ['not base64', 'Basic !!!', 'Malformed Basic credentials; expected Authorization: Basic base64(<organization id>:<API key>)'],
    [
      'no colon',
      `Basic ${Buffer.from('just-an-org-id').toString('base64')}`,
      'Malformed Basic credentials; expected Authorization: Basic base64(<organization id>:<API key>)',
    ],
    ['another scheme', 'Token abc', 'Unsupported Authorization scheme'],
    [
      'the API key as Bearer',
      'Bearer emulator-api-key',
      'v2 expects Authorization: Basic base64(<organization id>:<API key>); Bearer is for v1 API keys and participant tokens',
    ],
  ])('answers 401 with %s and creates nothing', async (_name, header, message) => {
    const { api } = makeTestApp();
    const req = api.post('/v2/meetings').send({});
    if (header) req.set('Authorization', header);
    const res = await req.expect(401);
    expect(res.body).toEqual(v2Error(401, message));
    expect(res.text).not.toContain('emulator-api-key');
    const list = await api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(list.body.paging.total_count).toBe(0);
  });
});

describe('GET /v2/meetings', () => {
  /** Three meetings, one minute apart: Standup (START), Design review (+1 min), standup notes (+2 min). */
  async function threeMeetings() {
    const t = makeTestApp();
    const a = await createMeeting(t.api, { title: 'Standup' });
    t.advance(60_000);
    const b = await createMeeting(t.api, { title: 'Design review' });
    t.advance(60_000);
    const c = await createMeeting(t.api, { title: 'standup notes' });
    return { ...t, a, b, c };
  }

  it('lists newest first with the paging envelope', async () => {
    const { api, a, b, c } = await threeMeetings();
    const res = await api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: [c, b, a], paging: { total_count: 3, start_offset: 1, end_offset: 3 } });
  });

  it.each([
    [1, 2, [2, 1], { total_count: 3, start_offset: 1, end_offset: 2 }],
    [2, 2, [0], { total_count: 3, start_offset: 3, end_offset: 3 }],
    [3, 2, [], { total_count: 3, start_offset: 0, end_offset: 0 }],
    [2, 1, [1], { total_count: 3, start_offset: 2, end_offset: 2 }],
    [1, 100, [2, 1, 0], { total_count: 3, start_offset: 1, end_offset: 3 }],
  ])('page_no=%i&per_page=%i → items %j, paging %j', async (pageNo, perPage, order, paging) => {
    const { api, a, b, c } = await threeMeetings();
    const all = [a, b, c];
    const res = await api.get(`/v2/meetings?page_no=${pageNo}&per_page=${perPage}`).set('Authorization', BASIC).expect(200);
    expect(res.body.data).toEqual(order.map((i) => all[i]));
    expect(res.body.paging).toEqual(paging);
  });

  it('defaults to 25 per page', async () => {
    const { api } = makeTestApp();
    for (let i = 0; i < 26; i++) await createMeeting(api, { title: `m${i}` });
    const res = await api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.data[0].title).toBe('m25');
    expect(res.body.paging).toEqual({ total_count: 26, start_offset: 1, end_offset: 25 });
  });

  it.each([
    ['search=standup', ['c', 'a']],
    ['search=REVIEW', ['b']],
    ['search=nothing-like-it', []],
    [`start_time=${encodeURIComponent(iso(START + 60_000))}`, ['c', 'b']],
    [`end_time=${encodeURIComponent(iso(START + 60_000))}`, ['b', 'a']],
    [`start_time=${encodeURIComponent(iso(START + 1))}&end_time=${encodeURIComponent(iso(START + 60_000))}`, ['b']],
    [`search=standup&start_time=${encodeURIComponent(iso(START + 1))}`, ['c']],
    ['start_time=2026-01-01T05:30:00%2B05:30', ['c', 'b', 'a']],
  ])('filters with %s', async (query, expected) => {
    const t = await threeMeetings();
    const byName: Record<string, unknown> = { a: t.a, b: t.b, c: t.c };
    const res = await t.api.get(`/v2/meetings?${query}`).set('Authorization', BASIC).expect(200);
    expect(res.body.data).toEqual(expected.map((k) => byName[k]));
    expect(res.body.paging).toEqual(
      expected.length ? { total_count: expected.length, start_offset: 1, end_offset: expected.length } : { total_count: 0, start_offset: 0, end_offset: 0 },
    );
  });

  it('search finds a meeting without a title by its id only, never by a title word', async () => {
    const { api } = makeTestApp();
    const untitled = await createMeeting(api, {});
    const titled = await createMeeting(api, { title: 'Where we are' });
    const byWord = await api.get('/v2/meetings?search=here').set('Authorization', BASIC).expect(200);
    expect(byWord.body).toEqual({ success: true, data: [titled], paging: { total_count: 1, start_offset: 1, end_offset: 1 } });
    const byId = await api.get(`/v2/meetings?search=${untitled.id}`).set('Authorization', BASIC).expect(200);
    expect(byId.body.data).toEqual([untitled]);
  });

  it('pages a filtered list', async () => {
    const { api, a } = await threeMeetings();
    const res = await api.get('/v2/meetings?search=standup&page_no=2&per_page=1').set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: [a], paging: { total_count: 2, start_offset: 2, end_offset: 2 } });
  });

  it.each([
    ['start_time=yesterday', 'BAD_REQUEST: "start_time" must be in ISO 8601 date format'],
    ['end_time=2026-01-01', 'BAD_REQUEST: "end_time" must be in ISO 8601 date format'],
    ['search=a&search=b', 'BAD_REQUEST: "search" must be a string'],
    ['per_page=101', 'BAD_REQUEST: "per_page" must be less than or equal to 100'],
    ['page_no=-1', 'BAD_REQUEST: "page_no" must be greater than or equal to 0'],
  ])('rejects %s with 400', async (query, message) => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/meetings?${query}`).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
  });
});

describe('GET /v2/meetings/{id}', () => {
  it('answers the meeting', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api, { title: 'Retro', waiting_room: true });
    const res = await api.get(`/v2/meetings/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: m });
  });

  it('answers 404 for an unknown id', async () => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/meetings/${MISSING_ID}`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it('answers 400 for an id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/v2/meetings/not-a-uuid').set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "id" must be a valid GUID'));
  });

  it("does not show another organization's meeting (404)", async () => {
    const f = fixtures();
    const other = { id: '00000000-0000-4000-8000-000000000002', name: 'Other Org', api_key: 'other-api-key', products: [] };
    f.organizations.push(other);
    const { api } = makeTestApp({}, { fixtures: f });
    const m = await createMeeting(api);
    const res = await api.get(`/v2/meetings/${m.id}`).set('Authorization', basicAuth(other.id, other.api_key)).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${m.id}`));
    const list = await api.get('/v2/meetings').set('Authorization', basicAuth(other.id, other.api_key)).expect(200);
    expect(list.body.paging.total_count).toBe(0);
  });
});

describe('PATCH /v2/meetings/{id}', () => {
  it('changes only the given fields and moves updated_at', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { title: 'Standup', record_on_start: true, preferred_region: 'us-east-1' });
    t.advance(5_000);
    const res = await t.api.patch(`/v2/meetings/${m.id}`).set('Authorization', BASIC).send({ title: 'Daily', status: 'INACTIVE' }).expect(200);
    expect(res.body).toEqual({ success: true, data: { ...m, title: 'Daily', status: 'INACTIVE', updated_at: iso(START + 5_000) } });
    const got = await t.api.get(`/v2/meetings/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toEqual(res.body.data);
  });

  it('sets a nullable field to null', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api, { title: 'Standup', preferred_region: 'us-east-1' });
    const res = await api.patch(`/v2/meetings/${m.id}`).set('Authorization', BASIC).send({ title: null, preferred_region: null }).expect(200);
    expect(res.body.data).toMatchObject({ preferred_region: null });
    expect(res.body.data).not.toHaveProperty('title');
  });

  it('answers 404 for an unknown id', async () => {
    const { api } = makeTestApp();
    const res = await api.patch(`/v2/meetings/${MISSING_ID}`).set('Authorization', BASIC).send({ title: 'x' }).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it.each([
    ['not-a-uuid', { title: 'x' }, 'BAD_REQUEST: "id" must be a valid GUID'],
    ['{id}', { waiting_room: 'no' }, 'BAD_REQUEST: "waiting_room" must be a boolean'],
    ['{id}', { status: 'active' }, 'BAD_REQUEST: "status" must be one of [ACTIVE, INACTIVE]'],
  ])('answers 400 for id %s with %j and leaves the meeting as it was', async (id, body, message) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api
      .patch(`/v2/meetings/${id.replace('{id}', m.id)}`)
      .set('Authorization', BASIC)
      .send(body)
      .expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    const got = await api.get(`/v2/meetings/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toEqual(m);
  });
});

describe('PUT /v2/meetings/{id}', () => {
  it('replaces the meeting: fields not given return to their defaults', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, {
      title: 'Standup',
      record_on_start: true,
      waiting_room: true,
      status: 'INACTIVE',
      recording_config: { max_seconds: 120 },
    });
    t.advance(1_000);
    const res = await t.api.put(`/v2/meetings/${m.id}`).set('Authorization', BASIC).send({ title: 'Fresh', persist_chat: true }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: m.id,
        title: 'Fresh',
        preferred_region: null,
        waiting_room: false,
        record_on_start: false,
        live_stream_on_start: false,
        persist_chat: true,
        summarize_on_end: false,
        status: 'ACTIVE',
        recording_config: DEFAULT_RECORDING_CONFIG,
        ai_config: DEFAULT_AI_CONFIG,
        created_at: START_ISO,
        updated_at: iso(START + 1_000),
      },
    });
  });

  it('answers 404 for an unknown id', async () => {
    const { api } = makeTestApp();
    const res = await api.put(`/v2/meetings/${MISSING_ID}`).set('Authorization', BASIC).send({}).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it.each([
    ['not-a-uuid', {}, 'BAD_REQUEST: "id" must be a valid GUID'],
    ['{id}', { preferred_region: 'moon' }, 'BAD_REQUEST: "preferred_region" must be one of [ap-south-1, ap-southeast-1, us-east-1, eu-central-1]'],
  ])('answers 400 for id %s with %j and leaves the meeting as it was', async (id, body, message) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api, { title: 'Keep me', waiting_room: true });
    const res = await api
      .put(`/v2/meetings/${id.replace('{id}', m.id)}`)
      .set('Authorization', BASIC)
      .send(body)
      .expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    const got = await api.get(`/v2/meetings/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toEqual(m);
  });
});
