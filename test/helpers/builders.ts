// The one set of builders for the v2 resources, used by every test: through the HTTP API (so
// every answer is validated against the served OpenAPI document), each asserts its own success
// status and returns the resource as answered (take `.id` where only the id matters).
import { expect } from 'vitest';
import type { Api } from './test-app.js';
import { BASIC } from './test-app.js';

/** A v4 UUID that no seeded run ever hands out. */
export const MISSING_ID = '9f1b7c1e-0000-4000-8000-00000000dead';

export const PRESETS = {
  host: { id: '00000000-0000-4000-8000-0000000000a1', name: 'group_call_host' },
  participant: { id: '00000000-0000-4000-8000-0000000000a2', name: 'group_call_participant' },
} as const;

type Body = Record<string, unknown>;
/** A v2 resource as answered: its id, and the rest for assertions. */
export type Resource = Record<string, unknown> & { id: string };

export async function createMeeting(api: Api, body: Body = { title: 'Standup' }): Promise<Resource> {
  const res = await api.post('/v2/meetings').set('Authorization', BASIC).send(body).expect(201);
  return res.body.data;
}

export async function addParticipant(api: Api, meetingId: string, body: Body = {}): Promise<Resource & { token: string }> {
  const res = await api
    .post(`/v2/meetings/${meetingId}/participants`)
    .set('Authorization', BASIC)
    .send({ name: 'Ada', preset_name: PRESETS.host.name, custom_participant_id: 'client-1', ...body })
    .expect(201);
  expect(typeof res.body.data.token).toBe('string');
  return res.body.data;
}

export async function startRecording(api: Api, meetingId: string, body: Body = {}, auth = BASIC): Promise<Resource> {
  const res = await api
    .post('/v2/recordings')
    .set('Authorization', auth)
    .send({ meeting_id: meetingId, ...body })
    .expect(200);
  return res.body.data;
}

export async function getRecording(api: Api, id: string): Promise<Resource> {
  const res = await api.get(`/v2/recordings/${id}`).set('Authorization', BASIC).expect(200);
  return res.body.data;
}

export async function recordingAction(api: Api, id: string, action: 'stop' | 'pause' | 'resume'): Promise<Resource> {
  const res = await api.put(`/v2/recordings/${id}`).set('Authorization', BASIC).send({ action }).expect(200);
  return res.body.data;
}

export async function getLivestream(api: Api, id: string): Promise<Resource> {
  const res = await api.get(`/v2/livestreams/${id}`).set('Authorization', BASIC).expect(200);
  return res.body.data;
}

export async function createLivestream(api: Api, meetingId: string, body: Body = {}): Promise<Resource> {
  const res = await api.post(`/v2/meetings/${meetingId}/livestreams`).set('Authorization', BASIC).send(body).expect(201);
  return res.body.data;
}

/** The v2 error envelope, exactly. */
export function v2Error(code: number, message: string | RegExp) {
  return { success: false, error: { code, message: typeof message === 'string' ? message : expect.stringMatching(message) } };
}

/** The smallest body production's POST /v2/presets accepts: a name, the config, and the ui with every design token. */
export const PRESET_BODY = {
  name: 'built_preset',
  config: {
    view_type: 'GROUP_CALL',
    max_video_streams: { mobile: 4, desktop: 9 },
    max_screenshare_count: 1,
    media: { video: { quality: 'hd', frame_rate: 30 }, screenshare: { quality: 'hd', frame_rate: 5 } },
  },
  ui: {
    design_tokens: {
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
    },
  },
};

export async function createPreset(api: Api, body: Body = {}, auth = BASIC): Promise<Resource> {
  const res = await api
    .post('/v2/presets')
    .set('Authorization', auth)
    .send({ ...PRESET_BODY, ...body })
    .expect(200);
  return res.body.data;
}
