import { describe, expect, it } from 'vitest';
import { BASIC, START_ISO, basicAuth, makeTestApp } from '../../helpers/test-app.js';

describe('POST /v2/meetings', () => {
  it('creates a meeting with defaults and answers 201 in the envelope', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/meetings').set('Authorization', BASIC).send({ title: 'Standup', preferred_region: 'eu-central-1' }).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title: 'Standup',
        preferred_region: 'eu-central-1',
        waiting_room: false,
        record_on_start: false,
        live_stream_on_start: false,
        persist_chat: false,
        summarize_on_end: false,
        status: 'ACTIVE',
        recording_config: null,
        created_at: START_ISO,
        updated_at: START_ISO,
      },
    });
  });

  it('needs no body at all', async () => {
    const { api } = makeTestApp();
    await api.post('/v2/meetings').set('Authorization', BASIC).expect(201);
  });

  it.each([
    [{ title: 5 }, 'BAD_REQUEST: "title" must be a string'],
    [{ preferred_region: 'mars-1' }, 'BAD_REQUEST: "preferred_region" must be one of [ap-south-1, ap-southeast-1, us-east-1, eu-central-1]'],
    [{ record_on_start: 'yes' }, 'BAD_REQUEST: "record_on_start" must be a boolean'],
  ])('rejects %j with 400', async (body, message) => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/meetings').set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual({ success: false, error: { code: 400, message } });
  });

  it.each([
    ['no header', undefined],
    ['wrong key', basicAuth(undefined, 'nope')],
    ['unknown org', basicAuth('00000000-0000-4000-8000-000000000999')],
    ['not base64', 'Basic !!!'],
    ['another scheme', 'Token abc'],
  ])('answers 401 with %s', async (_name, header) => {
    const { api } = makeTestApp();
    const req = api.post('/v2/meetings').send({});
    if (header) req.set('Authorization', header);
    const res = await req.expect(401);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(401);
  });
});
