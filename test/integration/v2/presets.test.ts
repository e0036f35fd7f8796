// Presets: GET|POST /v2/presets, GET|PATCH|PUT|DELETE /v2/presets/{preset_id} (docs/api-v2.md,
// "Presets"). Every answer goes through the served OpenAPI document (makeTestApp's api); the
// expectations are production's documented shapes and defaults, written out.
import { describe, expect, it } from 'vitest';
import { parseFixtures } from '../../../src/store/fixtures.js';
import { MISSING_ID, PRESETS, addParticipant, createMeeting, v2Error } from '../../helpers/builders.js';
import { BASIC, START, START_ISO, basicAuth, bearer, fixtures, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FIXTURE_NAMES = ['group_call_host', 'group_call_participant', 'webinar_presenter', 'webinar_viewer', 'livestream_host', 'livestream_viewer'];

/** production's design tokens, with the defaults its schema names. */
const DESIGN_TOKENS = {
  border_radius: 'rounded',
  border_width: 'thin',
  spacing_base: 4,
  theme: 'dark',
  colors: {
    brand: { '300': '#844d1c', '400': '#9d5b22', '500': '#b56927', '600': '#d37c30', '700': '#d9904f' },
    background: { '600': '#222222', '700': '#1f1f1f', '800': '#1b1b1b', '900': '#181818', '1000': '#141414' },
    danger: '#FF2D2D',
    text: '#EEEEEE',
    text_on_brand: '#EEEEEE',
    success: '#62A504',
    video_bg: '#191919',
    warning: '#FFCD07',
  },
  logo: '',
};

/** The smallest body production accepts: a name, the config and the ui with every design token. */
const CONFIG = {
  view_type: 'WEBINAR',
  max_video_streams: { mobile: 2, desktop: 6 },
  max_screenshare_count: 1,
  media: { video: { quality: 'vga', frame_rate: 24 }, screenshare: { quality: 'hd', frame_rate: 5 } },
};
const BODY = { name: 'coach', config: CONFIG, ui: { design_tokens: DESIGN_TOKENS } };

/** An ordinary participant: the emulator's permissions where a creator gives none (docs/limits-and-decisions.md). */
const DEFAULT_PERMISSIONS = {
  accept_waiting_requests: false,
  can_accept_production_requests: false,
  can_edit_display_name: true,
  can_spotlight: false,
  is_recorder: false,
  recorder_type: 'NONE',
  disable_participant_audio: false,
  disable_participant_screensharing: false,
  disable_participant_video: false,
  kick_participant: false,
  pin_participant: false,
  can_record: false,
  can_livestream: false,
  waiting_room_type: 'SKIP',
  plugins: { can_close: false, can_start: false, can_edit_config: false, config: { access_control: 'FULL_ACCESS', handles_view_only: false } },
  connected_meetings: { can_alter_connected_meetings: false, can_switch_connected_meetings: false, can_switch_to_parent_meeting: false },
  polls: { can_create: false, can_vote: true, can_view: true },
  media: { video: { can_produce: 'ALLOWED' }, audio: { can_produce: 'ALLOWED' }, screenshare: { can_produce: 'ALLOWED' } },
  chat: { public: { can_send: true, text: true, files: true }, private: { can_send: true, can_receive: true, text: true, files: true } },
  hidden_participant: false,
  show_participant_list: true,
  can_change_participant_permissions: false,
  transcription_enabled: false,
};

const WITH_PERMISSIONS = { ...BODY, permissions: { ...DEFAULT_PERMISSIONS, can_record: true } };

async function createPreset(t: TestApp, body: Record<string, unknown> = BODY, auth = BASIC) {
  const res = await t.api.post('/v2/presets').set('Authorization', auth).send(body).expect(200);
  return res.body.data as { id: string; name: string } & Record<string, unknown>;
}

async function names(t: TestApp, auth = BASIC): Promise<string[]> {
  const res = await t.api.get('/v2/presets?per_page=100').set('Authorization', auth).expect(200);
  return res.body.data.map((p: { name: string }) => p.name);
}

async function newOrg(t: TestApp) {
  const org = (await t.api.post('/_emulator/orgs').send({ name: 'B' }).expect(201)).body as { id: string; api_key: string };
  return basicAuth(org.id, org.api_key);
}

describe('GET /v2/presets', () => {
  it('lists the fixture presets in their order, paged, as id, name and times', async () => {
    const t = makeTestApp();
    const res = await t.api.get('/v2/presets').set('Authorization', BASIC).expect(200);
    expect(res.body.paging).toEqual({ total_count: 6, start_offset: 1, end_offset: 6 });
    expect(res.body.data[0]).toEqual({ id: PRESETS.host.id, name: PRESETS.host.name, created_at: START_ISO, updated_at: START_ISO });
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(FIXTURE_NAMES);
  });

  it('pages with page_no and per_page; created presets come last', async () => {
    const t = makeTestApp();
    const made = await createPreset(t);
    const res = await t.api.get('/v2/presets?page_no=2&per_page=4').set('Authorization', BASIC).expect(200);
    expect(res.body.paging).toEqual({ total_count: 7, start_offset: 5, end_offset: 7 });
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(['livestream_host', 'livestream_viewer', 'coach']);
    expect(res.body.data[2].id).toBe(made.id);
  });

  it('rejects a per_page over 100 with 400', async () => {
    const t = makeTestApp();
    const res = await t.api.get('/v2/presets?per_page=101').set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "per_page" must be less than or equal to 100'));
  });
});

describe('GET /v2/presets/{preset_id}', () => {
  it('answers a fixture preset as a whole production document, defaults filled in', async () => {
    const t = makeTestApp();
    const res = await t.api.get(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: PRESETS.participant.id,
        name: 'group_call_participant',
        config: {
          view_type: 'GROUP_CALL',
          max_video_streams: { mobile: 4, desktop: 9 },
          max_screenshare_count: 1,
          media: {
            audio: { enable_stereo: false, enable_high_bitrate: false },
            video: { quality: 'hd', frame_rate: 30 },
            screenshare: { quality: 'hd', frame_rate: 5 },
          },
        },
        permissions: DEFAULT_PERMISSIONS,
        ui: { design_tokens: DESIGN_TOKENS, config_diff: {} },
        created_at: START_ISO,
        updated_at: START_ISO,
      },
    });
  });

  it('a host preset holds the host powers and may record and livestream', async () => {
    const t = makeTestApp();
    const res = await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body.data.permissions).toMatchObject({ can_record: true, can_livestream: true, kick_participant: true, accept_waiting_requests: true });
    expect(res.body.data.ui.design_tokens).toEqual(DESIGN_TOKENS);
  });

  it('the served OpenAPI reference requires every field of an answered preset, those create may leave out too', async () => {
    const t = makeTestApp();
    const doc = (await t.api.get('/_emulator/openapi.json').expect(200)).body;
    type Obj = { required?: string[]; properties: Record<string, Obj> };
    const data = doc.paths['/v2/presets/{preset_id}'].get.responses['200'].content['application/json'].schema.properties.data as Obj;
    const sorted = (o: Obj) => [...(o.required ?? [])].sort();
    expect(sorted(data)).toEqual(['config', 'created_at', 'id', 'name', 'permissions', 'ui', 'updated_at']);
    expect(sorted(data.properties.config!.properties.media!)).toEqual(['audio', 'screenshare', 'video']);
    expect(sorted(data.properties.config!.properties.media!.properties.audio!)).toEqual(['enable_high_bitrate', 'enable_stereo']);
    expect(sorted(data.properties.permissions!)).toEqual(Object.keys(DEFAULT_PERMISSIONS).sort());
    expect(sorted(data.properties.ui!)).toEqual(['config_diff', 'design_tokens']);
  });

  it('answers 404 for an unknown id and 400 for an id that is not a UUID', async () => {
    const t = makeTestApp();
    const missing = await t.api.get(`/v2/presets/${MISSING_ID}`).set('Authorization', BASIC).expect(404);
    expect(missing.body).toEqual(v2Error(404, `No preset found with id ${MISSING_ID}`));
    const bad = await t.api.get('/v2/presets/not-a-uuid').set('Authorization', BASIC).expect(400);
    expect(bad.body).toEqual(v2Error(400, 'BAD_REQUEST: "preset_id" must be a valid GUID'));
  });
});

describe('POST /v2/presets', () => {
  it('creates a preset from the required parts: permissions left out are an ordinary participant’s', async () => {
    const t = makeTestApp();
    t.advance(60_000);
    const res = await t.api.post('/v2/presets').set('Authorization', BASIC).send(BODY).expect(200);
    const at = new Date(START + 60_000).toISOString();
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(UUID),
        name: 'coach',
        config: { ...CONFIG, media: { ...CONFIG.media, audio: { enable_stereo: false, enable_high_bitrate: false } } },
        permissions: DEFAULT_PERMISSIONS,
        ui: { design_tokens: DESIGN_TOKENS, config_diff: {} },
        created_at: at,
        updated_at: at,
      },
    });
    const again = await t.api.get(`/v2/presets/${res.body.data.id}`).set('Authorization', BASIC).expect(200);
    expect(again.body).toEqual(res.body);
  });

  it('keeps given permissions, audio flags, a plugin config id and config_diff', async () => {
    const t = makeTestApp();
    const pluginConfig = '3f1e8c2a-6a55-4b8f-9d3e-2c1f0a9b8e7d';
    const body = {
      ...WITH_PERMISSIONS,
      permissions: { ...WITH_PERMISSIONS.permissions, plugins: { can_close: true, can_start: true, can_edit_config: false, config: pluginConfig } },
      config: { ...CONFIG, media: { ...CONFIG.media, audio: { enable_stereo: true } } },
      ui: { design_tokens: { ...DESIGN_TOKENS, logo: 'https://example.test/logo.png' }, config_diff: { header: { hidden: true } } },
    };
    const made = await createPreset(t, body);
    expect(made.permissions).toEqual(body.permissions);
    expect(made.config).toEqual({ ...CONFIG, media: { ...CONFIG.media, audio: { enable_stereo: true, enable_high_bitrate: false } } });
    expect(made.ui).toEqual(body.ui);
  });

  it('keeps a free-form config_diff as given, nulls included, through POST and PATCH', async () => {
    const t = makeTestApp();
    const configDiff = { header: { logo: null }, sidebar: null, items: [1, null] };
    const made = await createPreset(t, { ...BODY, ui: { ...BODY.ui, config_diff: configDiff } });
    expect(made.ui).toEqual({ design_tokens: DESIGN_TOKENS, config_diff: { header: { logo: null }, sidebar: null, items: [1, null] } });
    const res = await t.api
      .patch(`/v2/presets/${made.id}`)
      .set('Authorization', BASIC)
      .send({ ui: { config_diff: { footer: null } } })
      .expect(200);
    expect(res.body.data.ui.config_diff).toEqual({ header: { logo: null }, sidebar: null, items: [1, null], footer: null });
  });

  it('keeps config_diff keys named like built-in object members (toString, constructor) through POST and PATCH', async () => {
    const t = makeTestApp();
    const made = await createPreset(t, { ...BODY, ui: { ...BODY.ui, config_diff: { toString: 'x', constructor: { a: 1 }, keep: 1 } } });
    expect((made.ui as { config_diff: unknown }).config_diff).toEqual({ toString: 'x', constructor: { a: 1 }, keep: 1 });
    const res = await t.api
      .patch(`/v2/presets/${made.id}`)
      .set('Authorization', BASIC)
      .send({ ui: { config_diff: { constructor: { c: 3 }, more: 2 } } })
      .expect(200);
    expect(res.body.data.ui.config_diff).toEqual({ toString: 'x', constructor: { a: 1, c: 3 }, keep: 1, more: 2 });
  });

  it('takes transcription_enabled, the permission the transcription guide names (off when not given)', async () => {
    const t = makeTestApp();
    const made = await createPreset(t, { ...WITH_PERMISSIONS, permissions: { ...WITH_PERMISSIONS.permissions, transcription_enabled: true } });
    expect(made.permissions).toMatchObject({ transcription_enabled: true });
    const res = await t.api
      .patch(`/v2/presets/${made.id}`)
      .set('Authorization', BASIC)
      .send({ permissions: { transcription_enabled: false } })
      .expect(200);
    expect(res.body.data.permissions.transcription_enabled).toBe(false);
  });

  it.each([
    ['no name', { config: CONFIG, ui: BODY.ui }, 'BAD_REQUEST: "name" is required'],
    ['an empty name', { ...BODY, name: '' }, 'BAD_REQUEST: "name" is not allowed to be empty'],
    ['a name of 256 characters', { ...BODY, name: 'n'.repeat(256) }, 'BAD_REQUEST: "name" length must be less than or equal to 255 characters long'],
    ['no config', { name: 'x', ui: BODY.ui }, 'BAD_REQUEST: "config" is required'],
    ['no ui', { name: 'x', config: CONFIG }, 'BAD_REQUEST: "ui" is required'],
    ['a ui without design tokens', { ...BODY, ui: {} }, 'BAD_REQUEST: "ui.design_tokens" is required'],
    [
      'design tokens without a logo',
      { ...BODY, ui: { design_tokens: { ...DESIGN_TOKENS, logo: undefined } } },
      'BAD_REQUEST: "ui.design_tokens.logo" is required',
    ],
    [
      'a theme production does not list',
      { ...BODY, ui: { design_tokens: { ...DESIGN_TOKENS, theme: 'light' } } },
      'BAD_REQUEST: "ui.design_tokens.theme" must be one of [dark]',
    ],
    [
      'a view type no API lists',
      { ...BODY, config: { ...CONFIG, view_type: 'CHAT' } },
      'BAD_REQUEST: "config.view_type" must be one of [GROUP_CALL, WEBINAR, AUDIO_ROOM, LIVESTREAM]',
    ],
    [
      'a video frame rate over 30',
      { ...BODY, config: { ...CONFIG, media: { ...CONFIG.media, video: { quality: 'hd', frame_rate: 31 } } } },
      'BAD_REQUEST: "config.media.video.frame_rate" must be less than or equal to 30',
    ],
    [
      'a video quality production does not list',
      { ...BODY, config: { ...CONFIG, media: { ...CONFIG.media, video: { quality: '4k', frame_rate: 30 } } } },
      'BAD_REQUEST: "config.media.video.quality" must be one of [hd, vga, qvga]',
    ],
    [
      'config without max_video_streams',
      { ...BODY, config: { ...CONFIG, max_video_streams: undefined } },
      'BAD_REQUEST: "config.max_video_streams" is required',
    ],
    ['permissions given in part', { ...BODY, permissions: { can_record: true } }, 'BAD_REQUEST: "permissions.accept_waiting_requests" is required'],
    [
      'a waiting room type production does not list',
      { ...WITH_PERMISSIONS, permissions: { ...WITH_PERMISSIONS.permissions, waiting_room_type: 'NEVER' } },
      'BAD_REQUEST: "permissions.waiting_room_type" must be one of [SKIP, ON_PRIVILEGED_USER_ENTRY, SKIP_ON_ACCEPT]',
    ],
    [
      'a produce permission production does not list',
      { ...WITH_PERMISSIONS, permissions: { ...WITH_PERMISSIONS.permissions, media: { ...DEFAULT_PERMISSIONS.media, audio: { can_produce: 'YES' } } } },
      'BAD_REQUEST: "permissions.media.audio.can_produce" must be one of [ALLOWED, NOT_ALLOWED, CAN_REQUEST]',
    ],
    [
      'can_record as a string',
      { ...WITH_PERMISSIONS, permissions: { ...WITH_PERMISSIONS.permissions, can_record: 'yes' } },
      'BAD_REQUEST: "permissions.can_record" must be a boolean',
    ],
  ])('rejects %s with 400 and creates nothing', async (_name, body, message) => {
    const t = makeTestApp();
    const res = await t.api.post('/v2/presets').set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    expect(await names(t)).toEqual(FIXTURE_NAMES);
  });

  it('refuses a name the organization already has (409) and creates nothing', async () => {
    const t = makeTestApp();
    const res = await t.api
      .post('/v2/presets')
      .set('Authorization', BASIC)
      .send({ ...BODY, name: 'group_call_host' })
      .expect(409);
    expect(res.body).toEqual(v2Error(409, `A preset with name group_call_host already exists (id ${PRESETS.host.id})`));
    expect(await names(t)).toEqual(FIXTURE_NAMES);
  });
});

describe('PATCH /v2/presets/{preset_id}', () => {
  it('changes only the given fields, at any depth; updated_at moves, created_at stays', async () => {
    const t = makeTestApp();
    const before = (await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200)).body.data;
    t.advance(5_000);
    const patch = {
      permissions: { can_record: false, media: { video: { can_produce: 'CAN_REQUEST' } } },
      ui: { design_tokens: { colors: { brand: { '500': '#123456' } } } },
      config: { max_video_streams: { mobile: 1 } },
    };
    const res = await t.api.patch(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).send(patch).expect(200);
    const expected = structuredClone(before);
    expected.permissions.can_record = false;
    expected.permissions.media.video.can_produce = 'CAN_REQUEST';
    expected.ui.design_tokens.colors.brand['500'] = '#123456';
    expected.config.max_video_streams.mobile = 1;
    expected.updated_at = new Date(START + 5_000).toISOString();
    expect(res.body).toEqual({ success: true, data: expected });
    expect((await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200)).body.data).toEqual(expected);
  });

  it('an empty body changes nothing but updated_at', async () => {
    const t = makeTestApp();
    const before = (await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200)).body.data;
    const res = await t.api.patch(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).send({}).expect(200);
    expect(res.body.data).toEqual(before);
  });

  it('a plugin config id replaced by its access object keeps a whole document', async () => {
    const t = makeTestApp();
    const pluginConfig = '3f1e8c2a-6a55-4b8f-9d3e-2c1f0a9b8e7d';
    await t.api
      .patch(`/v2/presets/${PRESETS.host.id}`)
      .set('Authorization', BASIC)
      .send({ permissions: { plugins: { config: pluginConfig } } })
      .expect(200);
    const res = await t.api
      .patch(`/v2/presets/${PRESETS.host.id}`)
      .set('Authorization', BASIC)
      .send({ permissions: { plugins: { config: { access_control: 'VIEW_ONLY' } } } })
      .expect(200);
    expect(res.body.data.permissions.plugins.config).toEqual({ access_control: 'VIEW_ONLY', handles_view_only: false });
  });

  it('renames: participants added with the preset name it by its new name; the old name is free', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { preset_name: 'group_call_participant', custom_participant_id: 'pp' });
    const res = await t.api.patch(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).send({ name: 'attendee' }).expect(200);
    expect(res.body.data.name).toBe('attendee');
    const got = await t.api.get(`/v2/meetings/${m.id}/participants/${p.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toMatchObject({ preset_name: 'attendee', preset_id: PRESETS.participant.id });
    await addParticipant(t.api, m.id, { preset_name: 'attendee', custom_participant_id: 'p2' });
    const old = await t.api
      .post(`/v2/meetings/${m.id}/participants`)
      .set('Authorization', BASIC)
      .send({ preset_name: 'group_call_participant', custom_participant_id: 'p3' })
      .expect(400);
    expect(old.body.error.message).toMatch(/^BAD_REQUEST: No preset found with name group_call_participant;/);
    await createPreset(t, { ...BODY, name: 'group_call_participant' });
  });

  it('a rename leaves the participants added with other presets naming theirs', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const host = await addParticipant(t.api, m.id, { preset_name: 'group_call_host', custom_participant_id: 'h1' });
    const attendee = await addParticipant(t.api, m.id, { preset_name: 'group_call_participant', custom_participant_id: 'a1' });
    await t.api.patch(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).send({ name: 'attendee' }).expect(200);
    const got = async (id: string) => (await t.api.get(`/v2/meetings/${m.id}/participants/${id}`).set('Authorization', BASIC).expect(200)).body.data;
    expect(await got(host.id)).toMatchObject({ preset_name: 'group_call_host', preset_id: PRESETS.host.id });
    expect(await got(attendee.id)).toMatchObject({ preset_name: 'attendee', preset_id: PRESETS.participant.id });
  });

  it('refuses another preset’s name (409); its own name is fine', async () => {
    const t = makeTestApp();
    const res = await t.api.patch(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).send({ name: PRESETS.host.name }).expect(409);
    expect(res.body).toEqual(v2Error(409, `A preset with name ${PRESETS.host.name} already exists (id ${PRESETS.host.id})`));
    await t.api.patch(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).send({ name: PRESETS.participant.name }).expect(200);
  });

  it.each([
    ['an empty name', { name: '' }, 'BAD_REQUEST: "name" is not allowed to be empty'],
    [
      'a view type no API lists',
      { config: { view_type: 'CHAT' } },
      'BAD_REQUEST: "config.view_type" must be one of [GROUP_CALL, WEBINAR, AUDIO_ROOM, LIVESTREAM]',
    ],
    [
      'a recorder type production does not list',
      { permissions: { recorder_type: 'CAMERA' } },
      'BAD_REQUEST: "permissions.recorder_type" must be one of [RECORDER, LIVESTREAMER, NONE]',
    ],
    [
      'a frame rate that is not an integer',
      { config: { media: { screenshare: { frame_rate: 1.5 } } } },
      'BAD_REQUEST: "config.media.screenshare.frame_rate" must be an integer',
    ],
    [
      'a plugin config that is neither an id nor an access object',
      { permissions: { plugins: { config: 'nope' } } },
      'BAD_REQUEST: "permissions.plugins.config" must be a valid GUID',
    ],
  ])('rejects %s with 400 and changes nothing', async (_name, body, message) => {
    const t = makeTestApp();
    const before = (await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200)).body;
    const res = await t.api.patch(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    expect((await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200)).body).toEqual(before);
  });

  it('answers 404 for an unknown id', async () => {
    const t = makeTestApp();
    const res = await t.api.patch(`/v2/presets/${MISSING_ID}`).set('Authorization', BASIC).send({ name: 'x' }).expect(404);
    expect(res.body).toEqual(v2Error(404, `No preset found with id ${MISSING_ID}`));
  });
});

describe('PUT /v2/presets/{preset_id}', () => {
  const put = (t: TestApp, id: string, body: Record<string, unknown>, auth = BASIC) => t.api.put(`/v2/presets/${id}`).set('Authorization', auth).send(body);

  it('replaces the whole document: what the body leaves out returns to its default; the id and created_at stay', async () => {
    const t = makeTestApp();
    const colors = { ...DESIGN_TOKENS.colors, danger: '#AA0000' };
    const made = await createPreset(t, { ...WITH_PERMISSIONS, ui: { design_tokens: { ...DESIGN_TOKENS, colors }, config_diff: { a: 1 } } });
    t.advance(5_000);
    const replacement = { ...BODY, name: 'coach_replaced', config: { ...CONFIG, view_type: 'GROUP_CALL' } };
    const res = await put(t, made.id, replacement).expect(200);
    // The same body made into a new preset at the same time: the document a replacement gives.
    const reference = await createPreset(t, { ...replacement, name: 'reference' });
    const expected = { ...reference, id: made.id, name: 'coach_replaced', created_at: START_ISO };
    expect(res.body).toEqual({ success: true, data: expected });
    expect(res.body.data.permissions).toEqual(DEFAULT_PERMISSIONS);
    expect(res.body.data.updated_at).toBe(new Date(START + 5_000).toISOString());
    expect((await t.api.get(`/v2/presets/${made.id}`).set('Authorization', BASIC).expect(200)).body.data).toEqual(expected);
    expect(await names(t)).toEqual([...FIXTURE_NAMES, 'coach_replaced', 'reference']);
  });

  it('a new name follows the preset to its participants, whose tokens get the new permissions', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { preset_name: 'group_call_participant', custom_participant_id: 'pp' });
    await put(t, PRESETS.participant.id, { ...WITH_PERMISSIONS, name: 'recorder' }).expect(200);
    const got = await t.api.get(`/v2/meetings/${m.id}/participants/${p.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toMatchObject({ preset_name: 'recorder', preset_id: PRESETS.participant.id });
    // can_record, which the fixture preset did not give, now lets the participant's token record.
    await t.api.post('/v2/recordings').set('Authorization', bearer(p.token)).send({ meeting_id: m.id }).expect(200);
    await createPreset(t, { ...BODY, name: 'group_call_participant' });
  });

  it('refuses another preset’s name (409) and changes nothing; its own name is fine', async () => {
    const t = makeTestApp();
    const before = (await t.api.get(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).expect(200)).body;
    const res = await put(t, PRESETS.participant.id, { ...BODY, name: PRESETS.host.name }).expect(409);
    expect(res.body).toEqual(v2Error(409, `A preset with name ${PRESETS.host.name} already exists (id ${PRESETS.host.id})`));
    expect((await t.api.get(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).expect(200)).body).toEqual(before);
    await put(t, PRESETS.participant.id, { ...BODY, name: PRESETS.participant.name }).expect(200);
  });

  it.each([
    ['no name', { config: CONFIG, ui: { design_tokens: DESIGN_TOKENS } }],
    ['no config', { name: 'x', ui: { design_tokens: DESIGN_TOKENS } }],
    ['no ui', { name: 'x', config: CONFIG }],
    ['a part of a design token left out', { ...BODY, ui: { design_tokens: { ...DESIGN_TOKENS, theme: undefined } } }],
    ['a view type no API lists', { ...BODY, config: { ...CONFIG, view_type: 'CHAT' } }],
  ])('rejects a body with %s as create does (400) and changes nothing', async (_name, body) => {
    const t = makeTestApp();
    const before = (await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200)).body;
    const created = await t.api.post('/v2/presets').set('Authorization', BASIC).send(body).expect(400);
    const res = await put(t, PRESETS.host.id, body).expect(400);
    expect(res.body).toEqual(created.body);
    expect(res.body.error.message).toMatch(/^BAD_REQUEST: /);
    expect((await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200)).body).toEqual(before);
  });

  it('answers 404 for an unknown id, 400 for an id that is not a UUID, 401 without credentials', async () => {
    const t = makeTestApp();
    expect((await put(t, MISSING_ID, BODY).expect(404)).body).toEqual(v2Error(404, `No preset found with id ${MISSING_ID}`));
    await put(t, 'not-a-uuid', BODY).expect(400);
    await t.api.put(`/v2/presets/${PRESETS.host.id}`).send(BODY).expect(401);
    expect(await names(t)).toEqual(FIXTURE_NAMES);
  });

  it("another organization's preset is a 404 and stays as it was", async () => {
    const t = makeTestApp();
    const other = await newOrg(t);
    const theirs = await createPreset(t, BODY, other);
    const res = await put(t, theirs.id, { ...BODY, name: 'taken_over' }).expect(404);
    expect(res.body).toEqual(v2Error(404, `No preset found with id ${theirs.id}`));
    expect((await t.api.get(`/v2/presets/${theirs.id}`).set('Authorization', other).expect(200)).body.data).toEqual(theirs);
  });
});

describe('DELETE /v2/presets/{preset_id}', () => {
  it('answers the deleted preset; it is gone from GET and the list, and its name is free', async () => {
    const t = makeTestApp();
    const made = await createPreset(t);
    const res = await t.api.delete(`/v2/presets/${made.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: made });
    await t.api.get(`/v2/presets/${made.id}`).set('Authorization', BASIC).expect(404);
    expect(await names(t)).toEqual(FIXTURE_NAMES);
    const again = await createPreset(t);
    expect(again.id).not.toBe(made.id);
    const gone = await t.api.delete(`/v2/presets/${made.id}`).set('Authorization', BASIC).expect(404);
    expect(gone.body).toEqual(v2Error(404, `No preset found with id ${made.id}`));
  });

  it('participants added with it keep its name; their tokens stop working; a new preset brings them back', async () => {
    const t = makeTestApp();
    await createPreset(t, { ...WITH_PERMISSIONS, name: 'recorder' });
    const made = (await t.api.get('/v2/presets?per_page=100').set('Authorization', BASIC).expect(200)).body.data[6];
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { preset_name: 'recorder', custom_participant_id: 'r' });
    await t.api.delete(`/v2/presets/${made.id}`).set('Authorization', BASIC).expect(200);
    const got = await t.api.get(`/v2/meetings/${m.id}/participants/${p.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toMatchObject({ preset_name: 'recorder', preset_id: made.id });
    const refused = await t.api.post('/v2/recordings').set('Authorization', bearer(p.token)).send({ meeting_id: m.id }).expect(401);
    expect(refused.body).toEqual(v2Error(401, 'Invalid or expired participant token'));
    const added = await t.api
      .post(`/v2/meetings/${m.id}/participants`)
      .set('Authorization', BASIC)
      .send({ preset_name: 'recorder', custom_participant_id: 'r2' })
      .expect(400);
    expect(added.body.error.message).toMatch(/^BAD_REQUEST: No preset found with name recorder;/);
    const moved = await t.api
      .patch(`/v2/meetings/${m.id}/participants/${p.id}`)
      .set('Authorization', BASIC)
      .send({ preset_name: PRESETS.host.name })
      .expect(200);
    await t.api.post('/v2/recordings').set('Authorization', bearer(moved.body.data.token)).send({ meeting_id: m.id }).expect(200);
  });
});

describe('participants with a preset made through the API', () => {
  it('are added by its name, and its permissions decide what their token may do', async () => {
    const t = makeTestApp();
    const recorder = await createPreset(t, { ...WITH_PERMISSIONS, name: 'recorder' });
    await createPreset(t, { ...BODY, name: 'watcher' });
    const m = await createMeeting(t.api);
    const r = await addParticipant(t.api, m.id, { preset_name: 'recorder', custom_participant_id: 'r' });
    expect(r).toMatchObject({ preset_name: 'recorder', preset_id: recorder.id });
    const w = await addParticipant(t.api, m.id, { preset_name: 'watcher', custom_participant_id: 'w' });
    const refused = await t.api.post('/v2/recordings').set('Authorization', bearer(w.token)).send({ meeting_id: m.id }).expect(403);
    expect(refused.body).toEqual(v2Error(403, 'Preset watcher does not allow recording'));
    await t.api.post('/v2/recordings').set('Authorization', bearer(r.token)).send({ meeting_id: m.id }).expect(200);
  });

  it('a change of the preset applies to tokens already handed out', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { preset_name: 'group_call_participant', custom_participant_id: 'p' });
    await t.api.post('/v2/recordings').set('Authorization', bearer(p.token)).send({ meeting_id: m.id }).expect(403);
    await t.api
      .patch(`/v2/presets/${PRESETS.participant.id}`)
      .set('Authorization', BASIC)
      .send({ permissions: { can_record: true } })
      .expect(200);
    await t.api.post('/v2/recordings').set('Authorization', bearer(p.token)).send({ meeting_id: m.id }).expect(200);
  });
});

describe('auth and isolation', () => {
  const routes: Array<[string, 'get' | 'post' | 'patch' | 'delete', string]> = [
    ['list', 'get', '/v2/presets'],
    ['create', 'post', '/v2/presets'],
    ['fetch', 'get', `/v2/presets/${PRESETS.host.id}`],
    ['update', 'patch', `/v2/presets/${PRESETS.host.id}`],
    ['delete', 'delete', `/v2/presets/${PRESETS.host.id}`],
  ];

  it.each(routes)('%s answers 401 without credentials or with a wrong key', async (_name, method, url) => {
    const t = makeTestApp();
    const none = await t.api[method](url).send(method === 'post' ? BODY : {});
    expect(none.status).toBe(401);
    expect(none.body).toEqual(v2Error(401, 'Missing Authorization header'));
    const wrong = await t.api[method](url)
      .set('Authorization', basicAuth(undefined, 'not-the-key'))
      .send(method === 'post' ? BODY : {});
    expect(wrong.body).toEqual(v2Error(401, 'Invalid organization id or API key'));
    expect(await names(t)).toEqual(FIXTURE_NAMES);
  });

  it("another organization neither sees nor changes the first one's presets; names are per organization", async () => {
    const t = makeTestApp();
    const mine = await createPreset(t, { ...BODY, name: 'A-PRIVATE-PRESET' });
    const b = await newOrg(t);
    expect(await names(t, b)).toEqual(FIXTURE_NAMES);
    const list = await t.api.get('/v2/presets').set('Authorization', b).expect(200);
    expect(list.text).not.toContain(mine.id);
    expect(list.text).not.toContain(PRESETS.host.id);
    for (const method of ['get', 'patch', 'delete'] as const) {
      const res = await t.api[method](`/v2/presets/${mine.id}`).set('Authorization', b).send({ name: 'stolen' });
      expect(res.body).toEqual(v2Error(404, `No preset found with id ${mine.id}`));
    }
    const theirs = await createPreset(t, { ...BODY, name: 'A-PRIVATE-PRESET' }, b);
    expect(theirs.id).not.toBe(mine.id);
    expect((await t.api.get(`/v2/presets/${mine.id}`).set('Authorization', BASIC).expect(200)).body.data.name).toBe('A-PRIVATE-PRESET');
  });
});

describe('presets in state export, import and organization reset', () => {
  it('an export holds created and changed presets whole; an import brings them back; export → import → export is identical', async () => {
    const t = makeTestApp();
    const made = await createPreset(t, WITH_PERMISSIONS);
    await t.api
      .patch(`/v2/presets/${PRESETS.host.id}`)
      .set('Authorization', BASIC)
      .send({ config: { view_type: 'AUDIO_ROOM' } })
      .expect(200);
    await t.api.delete(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).expect(200);
    const before = (await t.api.get(`/v2/presets/${made.id}`).set('Authorization', BASIC).expect(200)).body;
    const first = (await t.api.get('/_emulator/state').expect(200)).text;

    const other = makeTestApp();
    await other.api.put('/_emulator/state').set('content-type', 'application/json').send(first).expect(200);
    expect((await other.api.get(`/v2/presets/${made.id}`).set('Authorization', BASIC).expect(200)).body).toEqual(before);
    const host = await other.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200);
    expect(host.body.data.config.view_type).toBe('AUDIO_ROOM');
    await other.api.get(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).expect(404);
    expect((await other.api.get('/_emulator/state').expect(200)).text).toBe(first);
  });

  it('resetting a fixture organization brings its fixture presets back and drops created ones', async () => {
    const t = makeTestApp();
    await createPreset(t);
    await t.api.patch(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).send({ name: 'renamed' }).expect(200);
    await t.api.delete(`/v2/presets/${PRESETS.participant.id}`).set('Authorization', BASIC).expect(200);
    await t.api.post(`/_emulator/orgs/${'00000000-0000-4000-8000-000000000001'}/reset`).expect(200);
    expect(await names(t)).toEqual(FIXTURE_NAMES);
  });

  it('resetting a created organization brings back the presets it was created with, same ids', async () => {
    const t = makeTestApp();
    const org = (await t.api.post('/_emulator/orgs').send({ name: 'B' }).expect(201)).body as { id: string; api_key: string };
    const b = basicAuth(org.id, org.api_key);
    const start = (await t.api.get('/v2/presets').set('Authorization', b).expect(200)).body.data;
    await createPreset(t, BODY, b);
    await t.api.delete(`/v2/presets/${start[0].id}`).set('Authorization', b).expect(200);
    await t.api.post(`/_emulator/orgs/${org.id}/reset`).expect(200);
    const after = (await t.api.get('/v2/presets').set('Authorization', b).expect(200)).body.data;
    expect(after.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual(start.map((p: { id: string; name: string }) => [p.id, p.name]));
  });

  it('resetting an organization that only an imported state holds brings back the presets it was imported with, same ids', async () => {
    const source = makeTestApp();
    const org = (await source.api.post('/_emulator/orgs').send({ name: 'B' }).expect(201)).body as { id: string; api_key: string };
    const b = basicAuth(org.id, org.api_key);
    await createPreset(source, { ...BODY, name: 'imported_preset' }, b);
    const t = makeTestApp();
    await t.api
      .put('/_emulator/state')
      .set('content-type', 'application/json')
      .send((await source.api.get('/_emulator/state').expect(200)).text)
      .expect(200);
    const imported = (await t.api.get('/v2/presets').set('Authorization', b).expect(200)).body.data as Array<{ id: string; name: string }>;
    expect(imported.map((p) => p.name)).toEqual([...FIXTURE_NAMES, 'imported_preset']);
    await createPreset(t, { ...BODY, name: 'made_after_the_import' }, b);
    await t.api.delete(`/v2/presets/${imported[0]!.id}`).set('Authorization', b).expect(200);
    await t.api.post(`/_emulator/orgs/${org.id}/reset`).expect(200);
    const after = (await t.api.get('/v2/presets').set('Authorization', b).expect(200)).body.data as Array<{ id: string; name: string }>;
    expect(after.map((p) => [p.id, p.name])).toEqual(imported.map((p) => [p.id, p.name]));
  });
});

describe('fixture presets', () => {
  it('take any part of the document; older view types and flags of their own still load', () => {
    const f = fixtures();
    f.default_presets = [
      {
        id: '00000000-0000-4000-8000-0000000000b1',
        name: 'stage',
        view_type: 'LIVESTREAM',
        permissions: { can_record: true, can_livestream: true, can_chat: true },
      },
      { id: '00000000-0000-4000-8000-0000000000b2', name: 'room', view_type: 'CHAT', permissions: { can_record: false, can_livestream: false } },
      { id: '00000000-0000-4000-8000-0000000000b3', name: 'bare' },
    ] as never;
    const t = makeTestApp({}, { fixtures: parseFixtures(f, 'fixtures') });
    const byId = (id: string) => t.deps.services.presets.get('00000000-0000-4000-8000-000000000001', id);
    expect(byId('00000000-0000-4000-8000-0000000000b1').config.view_type).toBe('LIVESTREAM');
    expect(byId('00000000-0000-4000-8000-0000000000b1').permissions).toMatchObject({ can_record: true, can_chat: true, kick_participant: false });
    expect(byId('00000000-0000-4000-8000-0000000000b2').config.view_type).toBe('GROUP_CALL');
    expect(byId('00000000-0000-4000-8000-0000000000b3').ui.design_tokens).toEqual(DESIGN_TOKENS);
  });

  it('a fixture preset with flags of its own answers them and still matches the served document', async () => {
    const f = fixtures();
    f.default_presets[0] = { ...f.default_presets[0]!, permissions: { ...f.default_presets[0]!.permissions!, can_chat: true } } as never;
    const t = makeTestApp({}, { fixtures: parseFixtures(f, 'fixtures') });
    const res = await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body.data.permissions).toMatchObject({ can_chat: true, can_record: true });
  });

  it("one preset per name: two of one name are refused among the default presets and among an organization's own", () => {
    const twice = fixtures();
    twice.default_presets.push({ ...twice.default_presets[0]!, id: '00000000-0000-4000-8000-0000000000b9' });
    expect(() => parseFixtures(twice, 'fixtures')).toThrow('fixtures: default_presets[6].name: duplicate preset name');
    const own = fixtures();
    own.organizations[0]!.presets = [twice.default_presets[0]!, { ...twice.default_presets[0]!, id: '00000000-0000-4000-8000-0000000000b9' }];
    expect(() => parseFixtures(own, 'fixtures')).toThrow('fixtures: organizations[0].presets[1].name: duplicate preset name');
  });
});
