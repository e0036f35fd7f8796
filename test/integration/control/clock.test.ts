// PUT /_emulator/clock (docs/time-and-lifecycles.md, docs/control-api.md): sets the manual clock
// to a given instant, forward only, running every job that falls due on the way. A time before
// the current one is a 400 in the control error shape, and the clock stays where it was.
import { describe, expect, it } from 'vitest';
import { createMeeting, startRecording } from '../../helpers/builders.js';
import { BASIC, START_ISO, makeTestApp } from '../../helpers/test-app.js';

const clockNow = async (t: ReturnType<typeof makeTestApp>) => (await t.api.get('/_emulator/clock').expect(200)).body;

describe('PUT /_emulator/clock', () => {
  it('moves the clock forward to the instant given and runs the jobs due by then', async () => {
    const t = makeTestApp();
    const recording = await startRecording(t.api, (await createMeeting(t.api)).id);
    // The recorder joins 3 s after the start (the default timings table).
    const res = await t.api.put('/_emulator/clock').send({ now: '2026-01-01T00:00:03Z' }).expect(200);
    expect(res.body).toEqual({ now: '2026-01-01T00:00:03.000Z', mode: 'manual', jobs_run: 1 });
    expect(await clockNow(t)).toEqual({ now: '2026-01-01T00:00:03.000Z', mode: 'manual' });
    const after = await t.api.get(`/v2/recordings/${recording.id}`).set('Authorization', BASIC).expect(200);
    expect(after.body.data).toMatchObject({ status: 'RECORDING', started_time: '2026-01-01T00:00:03.000Z' });
  });

  it('reads an instant with an offset as the same instant in UTC', async () => {
    const t = makeTestApp();
    const res = await t.api.put('/_emulator/clock').send({ now: '2026-01-02T01:30:00+01:00' }).expect(200);
    expect(res.body).toEqual({ now: '2026-01-02T00:30:00.000Z', mode: 'manual', jobs_run: 0 });
  });

  it('accepts the current time: nothing moves, no job runs', async () => {
    const t = makeTestApp();
    await startRecording(t.api, (await createMeeting(t.api)).id);
    const res = await t.api.put('/_emulator/clock').send({ now: START_ISO }).expect(200);
    expect(res.body).toEqual({ now: START_ISO, mode: 'manual', jobs_run: 0 });
  });

  it('refuses to move backwards: 400 in the control shape, the clock and the jobs untouched', async () => {
    const t = makeTestApp();
    const recording = await startRecording(t.api, (await createMeeting(t.api)).id);
    await t.api.put('/_emulator/clock').send({ now: '2026-01-01T00:00:01Z' }).expect(200);
    const res = await t.api.put('/_emulator/clock').send({ now: START_ISO }).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: '"now" must not be before the current time 2026-01-01T00:00:01.000Z' } });
    expect(await clockNow(t)).toEqual({ now: '2026-01-01T00:00:01.000Z', mode: 'manual' });
    // one millisecond back is still back
    await t.api.put('/_emulator/clock').send({ now: '2026-01-01T00:00:00.999Z' }).expect(400);
    // the recorder's join is still pending at its own time
    const still = await t.api.get(`/v2/recordings/${recording.id}`).set('Authorization', BASIC).expect(200);
    expect(still.body.data.status).toBe('INVOKED');
    await t.api.put('/_emulator/clock').send({ now: '2026-01-01T00:00:03Z' }).expect(200);
    expect((await t.api.get(`/v2/recordings/${recording.id}`).set('Authorization', BASIC).expect(200)).body.data.status).toBe('RECORDING');
  });

  it.each([
    ['no body', undefined],
    ['no "now"', {}],
    ['a number', { now: 1767225600000 }],
    ['a date without a time', { now: '2026-01-02' }],
    ['no zone (local time would differ between machines)', { now: '2026-01-02T00:00:00' }],
    ['an impossible date', { now: '2026-02-30T00:00:00Z' }],
    ['not a date', { now: 'tomorrow' }],
  ])('answers 400 in the control error shape for %s, and the clock stays', async (_name, body) => {
    const t = makeTestApp();
    const req = t.api.put('/_emulator/clock');
    const res = await (body === undefined ? req : req.send(body)).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: expect.stringContaining('"now"') } });
    expect(await clockNow(t)).toEqual({ now: START_ISO, mode: 'manual' });
  });
});
