import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { BASIC, START, START_ISO, makeTestApp } from '../../helpers/test-app.js';
import { MISSING_ID, PRESETS, addParticipant, createMeeting, v2Error } from '../../helpers/builders.js';

const iso = (ms: number) => new Date(ms).toISOString();
const path = (meetingId: string, participantId?: string) => `/v2/meetings/${meetingId}/participants${participantId ? `/${participantId}` : ''}`;

describe('POST /v2/meetings/{meeting_id}/participants', () => {
  it.each([
    ['custom_participant_id alone', { custom_participant_id: 'user-42' }],
    ['client_specific_id alone', { client_specific_id: 'user-42' }],
    ['both spellings, same value', { custom_participant_id: 'user-42', client_specific_id: 'user-42' }],
  ])('accepts %s and answers both spellings with a token (201)', async (_name, clientId) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api
      .post(path(m.id))
      .set('Authorization', BASIC)
      .send({ name: 'Ada', picture: 'https://example.com/ada.png', preset_name: 'group_call_host', ...clientId })
      .expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Ada',
        picture: 'https://example.com/ada.png',
        custom_participant_id: 'user-42',
        client_specific_id: 'user-42',
        preset_name: 'group_call_host',
        preset_id: PRESETS.host.id,
        created_at: START_ISO,
        updated_at: START_ISO,
        token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      },
    });
    expect(decodeJwt(res.body.data.token)).toMatchObject({ meetingId: m.id, participantId: res.body.data.id, presetId: PRESETS.host.id });
  });

  it('defaults name and picture to null', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.post(path(m.id)).set('Authorization', BASIC).send({ preset_name: 'webinar_viewer', client_specific_id: 'v1' }).expect(201);
    expect(res.body.data).toMatchObject({ name: null, picture: null, preset_name: 'webinar_viewer' });
  });

  it.each([
    [{ custom_participant_id: 'u' }, 'BAD_REQUEST: "preset_name" is required'],
    [{ preset_name: 'group_call_host' }, 'BAD_REQUEST: "custom_participant_id" is required'],
    [
      { preset_name: 'group_call_host', custom_participant_id: 'a', client_specific_id: 'b' },
      'BAD_REQUEST: "client_specific_id" must equal "custom_participant_id" when both are given',
    ],
    [{ preset_name: 'group_call_host', custom_participant_id: '' }, 'BAD_REQUEST: "custom_participant_id" is not allowed to be empty'],
    [{ preset_name: 'group_call_host', custom_participant_id: 7 }, 'BAD_REQUEST: "custom_participant_id" must be a string'],
    [{ preset_name: 'group_call_host', custom_participant_id: 'u', picture: 'not a url' }, 'BAD_REQUEST: "picture" must be a valid uri'],
    [{ preset_name: 'group_call_host', custom_participant_id: 'u', picture: 'ftp://example.com/a.png' }, 'BAD_REQUEST: "picture" must be a valid uri'],
    [
      { preset_name: 'group_call_host', custom_participant_id: 'u', name: 'x'.repeat(256) },
      'BAD_REQUEST: "name" length must be less than or equal to 255 characters long',
    ],
    [
      { preset_name: 'no_such_preset', custom_participant_id: 'u' },
      "BAD_REQUEST: No preset found with name no_such_preset; the organization's presets are: group_call_host, group_call_participant, webinar_presenter, webinar_viewer, livestream_host, livestream_viewer",
    ],
  ])('rejects %j with 400 and adds nobody', async (body, message) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.post(path(m.id)).set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    const list = await api.get(path(m.id)).set('Authorization', BASIC).expect(200);
    expect(list.body.paging.total_count).toBe(0);
  });

  it('an unknown preset_name in an organization that has no presets left says it has none', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const presets = (await api.get('/v2/presets?per_page=100').set('Authorization', BASIC).expect(200)).body.data as { id: string }[];
    for (const p of presets) await api.delete(`/v2/presets/${p.id}`).set('Authorization', BASIC).expect(200);
    const res = await api.post(path(m.id)).set('Authorization', BASIC).send({ preset_name: 'group_call_host', custom_participant_id: 'u' }).expect(400);
    expect(res.body).toEqual(v2Error(400, "BAD_REQUEST: No preset found with name group_call_host; the organization's presets are: (none)"));
  });

  it('answers 400 for a meeting id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const res = await api.post(path('123')).set('Authorization', BASIC).send({ preset_name: 'group_call_host', custom_participant_id: 'u' }).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "meeting_id" must be a valid GUID'));
  });

  it('answers 404 for an unknown meeting', async () => {
    const { api } = makeTestApp();
    const res = await api.post(path(MISSING_ID)).set('Authorization', BASIC).send({ preset_name: 'group_call_host', custom_participant_id: 'u' }).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it('answers 409 for an INACTIVE meeting', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api, { status: 'INACTIVE' });
    const res = await api.post(path(m.id)).set('Authorization', BASIC).send({ preset_name: 'group_call_host', custom_participant_id: 'u' }).expect(409);
    expect(res.body).toEqual(v2Error(409, `Meeting ${m.id} is INACTIVE; participants cannot be added`));
  });
});

describe('GET /v2/meetings/{meeting_id}/participants', () => {
  it('lists participants in the order they were added, without tokens', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const a = await addParticipant(t.api, m.id, { name: 'Ada', custom_participant_id: 'a' });
    t.advance(1_000);
    const b = await addParticipant(t.api, m.id, {
      name: 'Bob',
      client_specific_id: 'b',
      custom_participant_id: undefined,
      preset_name: 'group_call_participant',
    });
    const res = await t.api.get(path(m.id)).set('Authorization', BASIC).expect(200);
    const { token: _a, ...aNoToken } = a;
    const { token: _b, ...bNoToken } = b;
    expect(res.body).toEqual({ success: true, data: [aNoToken, bNoToken], paging: { total_count: 2, start_offset: 1, end_offset: 2 } });
    for (const item of res.body.data) expect(item).not.toHaveProperty('token');
  });

  it("lists only this meeting's participants and pages them", async () => {
    const { api } = makeTestApp();
    const m1 = await createMeeting(api);
    const m2 = await createMeeting(api);
    await addParticipant(api, m1.id, { custom_participant_id: 'a' });
    await addParticipant(api, m2.id, { custom_participant_id: 'other' });
    const b = await addParticipant(api, m1.id, { custom_participant_id: 'b' });
    const res = await api
      .get(`${path(m1.id)}?page_no=2&per_page=1`)
      .set('Authorization', BASIC)
      .expect(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([b.id]);
    expect(res.body.paging).toEqual({ total_count: 2, start_offset: 2, end_offset: 2 });
    const empty = await api
      .get(`${path(m1.id)}?page_no=3&per_page=1`)
      .set('Authorization', BASIC)
      .expect(200);
    expect(empty.body).toEqual({ success: true, data: [], paging: { total_count: 2, start_offset: 0, end_offset: 0 } });
  });

  it('answers 404 for an unknown meeting', async () => {
    const { api } = makeTestApp();
    const res = await api.get(path(MISSING_ID)).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it.each([
    ['per_page=101', 'BAD_REQUEST: "per_page" must be less than or equal to 100'],
    ['page_no=-1', 'BAD_REQUEST: "page_no" must be greater than or equal to 0'],
    ['page_no=two', 'BAD_REQUEST: "page_no" must be a number'],
  ])('answers 400 for %s', async (query, message) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api
      .get(`${path(m.id)}?${query}`)
      .set('Authorization', BASIC)
      .expect(400);
    expect(res.body).toEqual(v2Error(400, message));
  });
});

describe('GET /v2/meetings/{meeting_id}/participants/{participant_id}', () => {
  it('answers the participant without a token', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const { token: _t, ...p } = await addParticipant(api, m.id);
    const res = await api.get(path(m.id, p.id)).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: p });
  });

  it('answers 404 for an unknown participant', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.get(path(m.id, MISSING_ID)).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No participant found with id ${MISSING_ID}`));
  });

  it('answers 404 for a participant of another meeting', async () => {
    const { api } = makeTestApp();
    const m1 = await createMeeting(api);
    const m2 = await createMeeting(api);
    const p = await addParticipant(api, m1.id);
    const res = await api.get(path(m2.id, p.id)).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No participant found with id ${p.id}`));
  });

  it('answers 404 for an unknown meeting', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const p = await addParticipant(api, m.id);
    const res = await api.get(path(MISSING_ID, p.id)).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it.each([
    ['participant_id', (m: string) => path(m, 'nope')],
    ['meeting_id', () => path('nope', MISSING_ID)],
  ])('answers 400 when %s is not a GUID', async (name, url) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.get(url(m.id)).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, `BAD_REQUEST: "${name}" must be a valid GUID`));
  });
});

describe('PATCH /v2/meetings/{meeting_id}/participants/{participant_id}', () => {
  it('changes the given fields and answers a fresh token for the new preset', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { name: 'Ada', custom_participant_id: 'ada' });
    t.advance(60_000);
    const res = await t.api.patch(path(m.id, p.id)).set('Authorization', BASIC).send({ name: 'Ada L.', preset_name: 'group_call_participant' }).expect(200);
    const { token, ...data } = res.body.data;
    expect(data).toEqual({
      id: p.id,
      name: 'Ada L.',
      picture: null,
      custom_participant_id: 'ada',
      client_specific_id: 'ada',
      preset_name: 'group_call_participant',
      preset_id: PRESETS.participant.id,
      created_at: START_ISO,
      updated_at: iso(START + 60_000),
    });
    expect(token).not.toBe(p.token);
    expect(decodeJwt(token)).toMatchObject({ participantId: p.id, presetId: PRESETS.participant.id, iat: (START + 60_000) / 1000 });
    const got = await t.api.get(path(m.id, p.id)).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toEqual(data);
  });

  it.each([[{ client_specific_id: 'new-id' }], [{ custom_participant_id: 'new-id' }], [{ custom_participant_id: 'new-id', client_specific_id: 'new-id' }]])(
    'changes the client id through either spelling, or both with one value (%j)',
    async (body) => {
      const { api } = makeTestApp();
      const m = await createMeeting(api);
      const p = await addParticipant(api, m.id);
      const res = await api.patch(path(m.id, p.id)).set('Authorization', BASIC).send(body).expect(200);
      expect(res.body.data).toMatchObject({ custom_participant_id: 'new-id', client_specific_id: 'new-id', token: expect.any(String) });
    },
  );

  it.each([
    [
      { preset_name: 'nope' },
      "BAD_REQUEST: No preset found with name nope; the organization's presets are: group_call_host, group_call_participant, webinar_presenter, webinar_viewer, livestream_host, livestream_viewer",
    ],
    [{ name: 3 }, 'BAD_REQUEST: "name" must be a string'],
    [{ custom_participant_id: 'a', client_specific_id: 'b' }, 'BAD_REQUEST: "client_specific_id" must equal "custom_participant_id" when both are given'],
  ])('rejects %j with 400 and leaves the participant as it was', async (body, message) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const { token: _t, ...p } = await addParticipant(api, m.id);
    const res = await api.patch(path(m.id, p.id)).set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    const got = await api.get(path(m.id, p.id)).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toEqual(p);
  });

  it('answers 404 for an unknown participant', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.patch(path(m.id, MISSING_ID)).set('Authorization', BASIC).send({ name: 'x' }).expect(404);
    expect(res.body).toEqual(v2Error(404, `No participant found with id ${MISSING_ID}`));
  });
});

describe('DELETE /v2/meetings/{meeting_id}/participants/{participant_id}', () => {
  it('answers the removed participant in the production shape, and it is gone', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { client_specific_id: 'gone', custom_participant_id: undefined });
    t.advance(1_000);
    const res = await t.api.delete(path(m.id, p.id)).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: { custom_participant_id: 'gone', client_specific_id: 'gone', preset_id: PRESETS.host.id, created_at: START_ISO, updated_at: START_ISO },
    });
    const got = await t.api.get(path(m.id, p.id)).set('Authorization', BASIC).expect(404);
    expect(got.body).toEqual(v2Error(404, `No participant found with id ${p.id}`));
    const list = await t.api.get(path(m.id)).set('Authorization', BASIC).expect(200);
    expect(list.body.paging.total_count).toBe(0);
    const again = await t.api.delete(path(m.id, p.id)).set('Authorization', BASIC).expect(404);
    expect(again.body).toEqual(v2Error(404, `No participant found with id ${p.id}`));
  });

  it('answers 400 for a participant id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.delete(path(m.id, 'x')).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "participant_id" must be a valid GUID'));
  });
});

describe('POST /v2/meetings/{meeting_id}/participants/{participant_id}/token', () => {
  it('answers {token}: a new token for the same participant, issued now', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id);
    t.advance(3_600_000);
    const res = await t.api
      .post(`${path(m.id, p.id)}/token`)
      .set('Authorization', BASIC)
      .expect(200);
    expect(res.body).toEqual({ success: true, data: { token: expect.any(String) } });
    expect(Object.keys(res.body.data)).toEqual(['token']);
    const claims = decodeJwt(res.body.data.token);
    expect(claims).toMatchObject({ meetingId: m.id, participantId: p.id, presetId: PRESETS.host.id, iat: (START + 3_600_000) / 1000 });
    expect(res.body.data.token).not.toBe(p.token);
  });

  it.each([
    ['an unknown participant', (m: string) => path(m, MISSING_ID), `No participant found with id ${MISSING_ID}`],
    ['an unknown meeting', () => path(MISSING_ID, MISSING_ID), `No meeting found with id ${MISSING_ID}`],
  ])('answers 404 for %s', async (_name, url, message) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api
      .post(`${url(m.id)}/token`)
      .set('Authorization', BASIC)
      .expect(404);
    expect(res.body).toEqual(v2Error(404, message));
  });

  it('answers 400 for a participant id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api
      .post(`${path(m.id, 'abc')}/token`)
      .set('Authorization', BASIC)
      .expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "participant_id" must be a valid GUID'));
  });
});
