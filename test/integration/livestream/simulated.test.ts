// The simulator carries livestreams where no real picture can be made — asked for (--livestreams
// sample), media off, ffmpeg missing — as it always did: LIVE on its timer, the sample segments; the
// health check says which and why. Where the picture is real, the simulator leaves them alone.
import { describe, expect, it } from 'vitest';
import { createMeeting, createLivestream } from '../../helpers/builders.js';
import { BASIC, makeTestApp } from '../../helpers/test-app.js';

describe('which carries a livestream', () => {
  it.each([
    [{ livestreams: 'sample' as const }, 'every livestream is simulated: LIVE on a timer, the sample segments (--livestreams sample)'],
    [{ livestreams: 'real' as const, media: 'off' as const }, 'every livestream is simulated: LIVE on a timer, the sample segments (--media off)'],
    [
      { livestreams: 'real' as const, ffmpeg: '/nonexistent/ffmpeg' },
      expect.stringMatching(/^every livestream is simulated: .*\/nonexistent\/ffmpeg.*\(install ffmpeg, or give --ffmpeg\)$/),
    ],
  ])('%j: the simulator (LIVE 5 s after creation, the sample playlist), and the health check says why', async (config, reason) => {
    const t = makeTestApp(config);
    const health = (await t.api.get('/_emulator/health').expect(200)).body as { livestreams: Record<string, unknown> };
    expect(health.livestreams).toMatchObject({ mode: 'sample', ffmpeg: null, reason, packaging: 0, files: 0, bytes: 0 });
    const meeting = await createMeeting(t.api, {});
    const l = await createLivestream(t.api, meeting.id);
    t.advance(5_000);
    const active = await t.api.get(`/v2/meetings/${meeting.id}/active-livestream`).set('Authorization', BASIC).expect(200);
    expect(active.body.data.status).toBe('LIVE');
    const playlist = await t.api.get(`/media/livestreams/${l.id}/index.m3u8`).expect(200);
    expect(String(playlist.text)).toContain('segments/0.ts');
  });

  it('with real pictures the simulator leaves livestreams alone: OFFLINE until a picture is out, whatever the clock', async () => {
    const t = makeTestApp({ livestreams: 'real', ffmpeg: process.execPath });
    const health = (await t.api.get('/_emulator/health').expect(200)).body as { livestreams: Record<string, unknown> };
    expect(health.livestreams).toMatchObject({ mode: 'real', ffmpeg: process.execPath, reason: null, segment_seconds: 1 });
    const l = await t.api.post('/v2/livestreams').set('Authorization', BASIC).send({ name: 'encoder' }).expect(201);
    t.advance(60_000);
    const read = await t.api.get(`/v2/livestreams/${l.body.data.id}`).set('Authorization', BASIC).expect(200);
    expect(read.body.data.livestream.status).toBe('OFFLINE');
  });
});
