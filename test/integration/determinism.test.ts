// Reproducible runs: two runs with the same --seed, a manual clock and the same requests produce
// byte-identical responses. Two apps run one scripted flow; their raw bodies are compared one
// by one. A third app with another seed answers differently.
import { describe, expect, it } from 'vitest';
import { BASIC, bearer, makeTestApp, type TestApp } from '../helpers/test-app.js';

interface Step {
  status: number;
  text: string;
}

/** A full flow across the API: every generated id, key, token, URL and time is in a body. */
async function script(t: TestApp): Promise<Step[]> {
  const steps: Step[] = [];
  const call = async (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: object, auth: string | null = BASIC) => {
    const req = t.api[method](path);
    if (auth) req.set('Authorization', auth);
    const res = await (body === undefined ? req : req.send(body));
    steps.push({ status: res.status, text: res.text });
    return res.body;
  };
  const advance = (ms: number) => call('post', '/_emulator/clock/advance', { ms }, null);

  await call('get', '/.well-known/jwks.json', undefined, null);
  const meeting = (await call('post', '/v2/meetings', { title: 'Determinism', preferred_region: 'eu-central-1' })).data;
  const host = (
    await call('post', `/v2/meetings/${meeting.id}/participants`, { name: 'Host', preset_name: 'group_call_host', custom_participant_id: 'host-1' })
  ).data;
  const guest = (
    await call('post', `/v2/meetings/${meeting.id}/participants`, { name: 'Guest', preset_name: 'group_call_participant', client_specific_id: 'guest-1' })
  ).data;
  await call('post', `/v2/meetings/${meeting.id}/participants/${guest.id}/token`);
  await advance(60_000);
  await call('patch', `/v2/meetings/${meeting.id}/participants/${guest.id}`, { name: 'Guest 2' });
  await call('get', `/v2/meetings/${meeting.id}/participants`);

  const recording = (
    await call(
      'post',
      '/v2/recordings',
      { meeting_id: meeting.id, storage_config: { type: 'aws', bucket: 'b', access_key: 'k', secret_key: 's' } },
      bearer(host.token),
    )
  ).data;
  await call('post', '/v2/recordings', { meeting_id: meeting.id }, bearer(guest.token));
  await advance(3_000); // the recorder joins (default timings)
  await call('get', `/v2/recordings/${recording.id}`, undefined, bearer(host.token));
  await advance(45_000);
  await call('put', `/v2/recordings/${recording.id}`, { action: 'pause' });
  await advance(10_000);
  await call('put', `/v2/recordings/${recording.id}`, { action: 'resume' });
  await advance(30_000);
  await call('put', `/v2/recordings/${recording.id}`, { action: 'stop' });
  await call('get', `/v2/recordings/active-recording/${meeting.id}`);
  await advance(10 * 60_000);
  await call('get', `/v2/recordings/${recording.id}`);
  await call('get', `/v2/recordings?meeting_id=${meeting.id}&status=UPLOADED,UPLOADING&sort_order=ASC`);

  const livestream = (await call('post', `/v2/meetings/${meeting.id}/livestreams`, { name: 'Live' })).data;
  await advance(5_000 + 12_345); // live (default timings), then 12 345 ms of ingest
  await call('get', `/v2/meetings/${meeting.id}/active-livestream`);
  await call('post', `/v2/meetings/${meeting.id}/active-livestream/stop`);
  await call('get', `/v2/livestreams/${livestream.id}`);
  await call('get', '/v2/livestreams');
  await call('get', `/v2/meetings/${meeting.id}/livestream`);

  await call('delete', `/v2/meetings/${meeting.id}/participants/${guest.id}`);
  await call('get', '/v2/recordings', undefined, bearer(guest.token));
  await call('put', `/v2/meetings/${meeting.id}`, { title: 'Replaced' });
  await call('get', '/v2/meetings?search=replaced');
  await call('get', `/v2/meetings/${recording.id}`);
  await call('post', '/v2/recordings', {});
  return steps;
}

describe('determinism', () => {
  it('two apps with the same seed answer the same script byte for byte', async () => {
    const first = await script(makeTestApp({ seed: 'determinism-seed' }));
    const second = await script(makeTestApp({ seed: 'determinism-seed' }));
    expect(first.length).toBe(35);
    expect(second.length).toBe(first.length);
    for (let i = 0; i < first.length; i++) {
      expect(second[i], `step ${i}`).toEqual(first[i]);
    }
    // The script exercised what it means to: success, the lifecycle, and errors.
    expect(first.map((s) => s.status)).toEqual([
      200, 201, 201, 201, 200, 200, 200, 200, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 404, 200, 200, 200, 201, 200, 200, 200, 200, 200, 200, 200, 401,
      200, 200, 404, 400,
    ]);
    expect(first.some((s) => s.text.includes('"status":"UPLOADED"'))).toBe(true);
    expect(first.some((s) => s.text.includes('"status":"LIVE"'))).toBe(true);
  });

  it('an app with another seed answers differently', async () => {
    const a = await script(makeTestApp({ seed: 'determinism-seed' }));
    const b = await script(makeTestApp({ seed: 'another-determinism-seed' }));
    expect(b.map((s) => s.status)).toEqual(a.map((s) => s.status));
    // Only the answers that carry nothing generated are the same: clock moves, messages,
    // errors without ids, and the removed participant (client id, preset id, times).
    const same = a.flatMap((s, i) => (s.text === b[i]!.text ? [i] : []));
    expect(same).toEqual([5, 9, 10, 12, 14, 16, 19, 23, 25, 29, 30, 34]);
  });
});
