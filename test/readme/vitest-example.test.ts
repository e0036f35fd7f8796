import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from 'meetings-emulator';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ seed: 'readme' }); // manual clock, free port
});
afterAll(() => emu.close());

type Data = { id: string; status: string; download_url: string; file_size: number; recording_duration: number };

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: Data } };
}

it('records a meeting from start to download', async () => {
  const meeting = (await api('POST', '/v2/meetings', { title: 'Demo' })).body.data;
  const started = await api('POST', '/v2/recordings', { meeting_id: meeting.id });
  expect(started.body.data.status).toBe('INVOKED');

  await emu.advance(3_000); // the recorder joins
  await emu.advance(60_000); // one minute of recording
  const stopped = await api('PUT', `/v2/recordings/${started.body.data.id}`, { action: 'stop' });
  expect(stopped.body.data.status).toBe('UPLOADING');

  await emu.advance(15_000); // upload: 10 s + 5 s per recorded minute
  const done = (await api('GET', `/v2/recordings/${started.body.data.id}`)).body.data;
  expect(done.status).toBe('UPLOADED');
  expect(done.recording_duration).toBe(60);

  const file = await fetch(done.download_url);
  expect(file.headers.get('content-type')).toBe('video/mp4');
  expect(Number(file.headers.get('content-length'))).toBe(done.file_size);
});
