import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { makeTestApp } from '../../helpers/test-app.js';

const DEFAULTS = {
  recording: { mode: 'auto', start_delay_ms: 3_000, upload_base_ms: 10_000, upload_ms_per_recorded_minute: 5_000, fail_next: 0, fail_at: 'start' },
  livestream: { mode: 'auto', go_live_delay_ms: 5_000, viewers: 1, fail_next: 0 },
};

describe('GET /_emulator/simulator', () => {
  it('answers the default policy', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/_emulator/simulator').expect(200);
    expect(res.body).toEqual(DEFAULTS);
  });
});

describe('PATCH /_emulator/simulator', () => {
  it('merges the given fields and keeps the others', async () => {
    const { api } = makeTestApp();
    const res = await api
      .patch('/_emulator/simulator')
      .send({ recording: { start_delay_ms: 0, fail_next: 3, fail_at: 'upload' } })
      .expect(200);
    const expected = { ...DEFAULTS, recording: { ...DEFAULTS.recording, start_delay_ms: 0, fail_next: 3, fail_at: 'upload' } };
    expect(res.body).toEqual(expected);
    const again = await api
      .patch('/_emulator/simulator')
      .send({ livestream: { mode: 'manual', go_live_delay_ms: 1 } })
      .expect(200);
    expect(again.body).toEqual({ ...expected, livestream: { ...DEFAULTS.livestream, mode: 'manual', go_live_delay_ms: 1 } });
    expect((await api.get('/_emulator/simulator').expect(200)).body).toEqual(again.body);
  });

  it('an empty body changes nothing', async () => {
    const { api } = makeTestApp();
    expect((await api.patch('/_emulator/simulator').expect(200)).body).toEqual(DEFAULTS);
    expect((await api.patch('/_emulator/simulator').send({}).expect(200)).body).toEqual(DEFAULTS);
  });

  it.each([
    [{ recording: { mode: 'paused' } }, '"recording.mode" must be one of [auto, manual]'],
    [{ recording: { start_delay_ms: -1 } }, '"recording.start_delay_ms" must be greater than or equal to 0'],
    [{ recording: { upload_base_ms: 1.5 } }, '"recording.upload_base_ms" must be an integer'],
    [{ recording: { upload_ms_per_recorded_minute: '5000' } }, '"recording.upload_ms_per_recorded_minute" must be a number'],
    [{ recording: { start_delay_ms: 31 * 86_400_000 } }, '"recording.start_delay_ms" must be less than or equal to 2592000000'],
    [{ recording: { fail_next: -2 } }, '"recording.fail_next" must be greater than or equal to 0'],
    [{ recording: { fail_at: 'stop' } }, '"recording.fail_at" must be one of [start, upload]'],
    [{ recording: { failNext: 1 } }, '"failNext" is not allowed'],
    [{ livestream: { fail_at: 'start' } }, '"fail_at" is not allowed'],
    [{ livestream: { viewers: null } }, '"livestream.viewers" must be a number'],
    [{ recordings: {} }, '"recordings" is not allowed'],
    [{ recording: 'manual' }, '"recording" must be of type object'],
  ])('refuses %j with 400, leaving the policy as it was', async (body, message) => {
    const { api } = makeTestApp();
    const res = await api.patch('/_emulator/simulator').send(body).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message } });
    expect((await api.get('/_emulator/simulator').expect(200)).body).toEqual(DEFAULTS);
  });

  it('refuses a body that is not JSON with 415 and malformed JSON with 400', async () => {
    const { api } = makeTestApp();
    await api.patch('/_emulator/simulator').set('Content-Type', 'text/plain').send('mode=manual').expect(415);
    const res = await api.patch('/_emulator/simulator').set('Content-Type', 'application/json').send('{"recording":').expect(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  it('a reset (deps.reset, as POST /_emulator/reset does) returns the policy to its defaults', async () => {
    const t = makeTestApp();
    await t.api
      .patch('/_emulator/simulator')
      .send({ recording: { mode: 'manual', fail_next: 9 }, livestream: { viewers: 7 } })
      .expect(200);
    t.deps.reset();
    expect((await t.api.get('/_emulator/simulator').expect(200)).body).toEqual(DEFAULTS);
  });
});

describe('the control API in the served OpenAPI document', () => {
  it('documents the simulator, lifecycle and media routes', async () => {
    const { api } = makeTestApp();
    const doc = (await api.get('/_emulator/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { tags: string[]; responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths['/_emulator/simulator']!).sort()).toEqual(['get', 'patch']);
    for (const path of [
      '/_emulator/recordings/{id}/transition',
      '/_emulator/livestreams/{id}/transition',
      '/_emulator/meetings/{meeting_id}/participants/{participant_id}/join',
      '/_emulator/meetings/{meeting_id}/participants/{participant_id}/leave',
    ]) {
      expect(Object.keys(doc.paths[path]!)).toEqual(['post']);
      expect(Object.keys(doc.paths[path]!.post!.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']));
    }
    expect(Object.keys(doc.paths['/media/recordings/{recording_id}/{file}']!.get!.responses)).toEqual(
      expect.arrayContaining(['200', '206', '400', '403', '404', '410', '416']),
    );
    expect(doc.paths['/media/recordings/{recording_id}/{file}']!.get!.responses['200']).toEqual({
      description: 'The whole file',
      content: { 'video/mp4': {}, 'video/webm': {}, 'audio/mp4': {}, 'audio/mpeg': {}, 'audio/ogg': {} },
    });
    expect(doc.paths['/media/livestreams/{livestream_id}/index.m3u8']!.get!.responses['200']).toEqual({
      description: expect.any(String),
      content: { 'application/vnd.apple.mpegurl': {} },
    });
  });
});

describe('the control API groups in the served OpenAPI document', () => {
  it('every /_emulator operation sits under one of the control tags, this document itself under Control: system', async () => {
    const { api } = makeTestApp();
    const doc = (await api.get('/_emulator/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { tags: string[] }>> };
    const control = Object.entries(doc.paths).filter(([path]) => path.startsWith('/_emulator/'));
    const tags = new Set(control.flatMap(([, ops]) => Object.values(ops).flatMap((op) => op.tags)));
    expect([...tags].sort()).toEqual([
      'Control: clock',
      'Control: dashboard',
      'Control: faults',
      'Control: journal',
      'Control: lifecycles',
      'Control: network',
      'Control: products',
      'Control: simulator',
      'Control: state',
      'Control: system',
      'Control: tenancy',
      'Control: webhooks',
    ]);
    expect(doc.paths['/_emulator/openapi.json']!.get!.tags).toEqual(['Control: system']);
  });
});

describe('--simulator / EMULATOR_SIMULATOR', () => {
  it.each([
    [['--simulator', 'manual'], {}, 'manual'],
    [[], { EMULATOR_SIMULATOR: 'manual' }, 'manual'],
    [['--simulator=auto'], { EMULATOR_SIMULATOR: 'manual' }, 'auto'],
    [[], {}, 'auto'],
  ])('%j with env %j → %s', (argv, env, mode) => {
    const parsed = parseConfig(argv, env);
    expect(parsed.ok && 'config' in parsed && parsed.config.simulator).toBe(mode);
  });

  it('refuses another value with a reason', () => {
    expect(parseConfig(['--simulator', 'off'], {})).toEqual({ ok: false, reason: '--simulator must be one of auto, manual, got "off"' });
  });
});
