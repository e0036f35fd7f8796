// Webhooks as a receiver sees them: a real HTTP receiver on 127.0.0.1 (port 0), the manual
// clock, and the emulator's own HTTP transport. Signatures, headers and every event's payload.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { configWebhooks } from '../../src/webhooks/dispatcher.js';
import { BASIC, ORG_ID, START, fixtures, type TestApp } from '../helpers/test-app.js';
import { Receiver, advanceAndSettle, deliveries, inSentOrder, registerWebhook, type Received, trackNetwork } from '../helpers/webhook-receiver.js';
import { GO_LIVE_MS, RECORDER_JOINS_MS, SAMPLE_CLIP_BYTES } from '../helpers/documented.js';
import { addParticipant, createMeeting, startRecording } from '../helpers/builders.js';

const iso = (ms: number) => new Date(ms).toISOString();
const UPLOAD_OF_ONE_MINUTE_MS = 15_000; // 10 s + 1 recorded minute × 5 s

const net = trackNetwork();
const app = net.app;
async function receiver(...args: Parameters<typeof Receiver.start>): Promise<Receiver> {
  return net.receiver(await Receiver.start(...args));
}

async function publishedKeys(t: TestApp): Promise<KeyObject[]> {
  const res = await t.api.get('/.well-known/webhooks.json').expect(200);
  return [createPublicKey(res.body.public_key as string), createPublicKey({ key: res.body.keys[0], format: 'jwk' })];
}

function verifies(keys: KeyObject[], r: Received): boolean {
  const signature = Buffer.from(String(r.headers['dyte-signature']), 'base64');
  return keys.every((k) => verify('sha256', r.raw, k, signature));
}

async function addAndJoin(t: TestApp, meetingId: string, clientId: string): Promise<string> {
  const pid = (await addParticipant(t.api, meetingId, { name: `User ${clientId}`, custom_participant_id: clientId })).id;
  await t.api.post(`/_emulator/meetings/${meetingId}/participants/${pid}/join`).expect(200);
  return pid;
}

describe('signed deliveries to a real receiver', () => {
  it('signs the raw body; the signature verifies with the published key (PEM and JWK) and nothing else', async () => {
    const rx = await receiver();
    const t = app();
    const webhookId = await registerWebhook(t, rx.url(), ['recording.statusUpdate']);
    await startRecording(t.api, (await createMeeting(t.api, { title: 'Signed' })).id);
    // no clock movement: the first attempt goes out at once
    await t.deps.webhooks.outbox.idle();
    expect(rx.received).toHaveLength(1);
    const r = rx.received[0]!;
    const [delivery] = (await deliveries(t)).deliveries;
    expect(r.path).toBe('/hook');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toMatch(/^meetings-emulator-webhooks\//);
    expect(r.headers['dyte-webhook-id']).toBe(webhookId);
    expect(r.headers['dyte-uuid']).toBe(delivery!.id);
    expect(r.headers['content-length']).toBe(String(r.raw.length));
    expect(r.headers.authorization).toBeUndefined();
    // compact JSON: exactly what JSON.stringify makes, no whitespace
    expect(r.raw.toString('utf8')).toBe(JSON.stringify(r.json));
    const keys = await publishedKeys(t);
    expect(verifies(keys, r)).toBe(true);
    const tampered: Received = { ...r, raw: Buffer.from(r.raw.toString('utf8').replace('INVOKED', 'UPLOADED')) };
    expect(verifies(keys, tampered)).toBe(false);
    const reformatted: Received = { ...r, raw: Buffer.from(JSON.stringify(r.json, null, 1)) };
    expect(verifies(keys, reformatted)).toBe(false);
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: [{ at: iso(START), status_code: 200, error: null, trigger: 'initial' }],
      next_attempt_at: null,
    });
  });

  it('signs the UTF-8 bytes it sends: a meeting titled "Café ✓" arrives as UTF-8 and verifies with the published key', async () => {
    // docs/webhooks.md: the signature is over exactly the body bytes sent, and the body is JSON
    // (UTF-8). A receiver verifying the raw bytes must succeed whatever the meeting is called.
    const rx = await receiver();
    const t = app();
    await registerWebhook(t, rx.url(), ['recording.statusUpdate']);
    await startRecording(t.api, (await createMeeting(t.api, { title: 'Café ✓' })).id);
    await t.deps.webhooks.outbox.idle();
    expect(rx.received).toHaveLength(1);
    const r = rx.received[0]!;
    expect((r.json.meeting as { title: string }).title).toBe('Café ✓');
    // "é" is 2 bytes and "✓" 3 in UTF-8: the title alone is 9 bytes on the wire
    expect(r.raw.includes(Buffer.from('"Café ✓"', 'utf8'))).toBe(true);
    expect(r.headers['content-length']).toBe(String(r.raw.length));
    expect(verifies(await publishedKeys(t), r)).toBe(true);
  });

  it('gives each event × webhook its own delivery and dyte-uuid', async () => {
    const rx = await receiver();
    const t = app();
    const a = await registerWebhook(t, rx.url('/a'), ['recording.statusUpdate']);
    const b = await registerWebhook(t, rx.url('/b'), ['recording.statusUpdate']);
    await startRecording(t.api, (await createMeeting(t.api)).id);
    await advanceAndSettle(t, RECORDER_JOINS_MS);
    expect(rx.received).toHaveLength(4);
    expect(new Set(rx.received.map((r) => r.headers['dyte-uuid'])).size).toBe(4);
    const sent = inSentOrder(rx.received, (await deliveries(t)).deliveries);
    expect(sent.map((r) => [r.path, r.headers['dyte-webhook-id'], (r.json.recording as { status: string }).status])).toEqual([
      ['/a', a, 'INVOKED'],
      ['/b', b, 'INVOKED'],
      ['/a', a, 'RECORDING'],
      ['/b', b, 'RECORDING'],
    ]);
  });
});

describe('each event, as the receiver gets it', () => {
  it('recording.statusUpdate on every status change, INVOKED included, with exact times', async () => {
    const rx = await receiver();
    const t = app();
    await registerWebhook(t, rx.url(), ['recording.statusUpdate']);
    const meetingId = (await createMeeting(t.api, { title: 'Weekly' })).id;
    await addAndJoin(t, meetingId, 'host-1');
    const session = (await t.api.get(`/_emulator/meetings/${meetingId}/presence`).expect(200)).body;
    const recordingId = (await startRecording(t.api, meetingId)).id;
    await advanceAndSettle(t, RECORDER_JOINS_MS);
    await advanceAndSettle(t, 60_000);
    await t.api.put(`/v2/recordings/${recordingId}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200);
    await t.deps.webhooks.outbox.idle();
    await advanceAndSettle(t, UPLOAD_OF_ONE_MINUTE_MS);

    expect(rx.received.map((r) => (r.json.recording as { status: string }).status)).toEqual(['INVOKED', 'RECORDING', 'UPLOADING', 'UPLOADED']);
    const api = (await t.api.get(`/v2/recordings/${recordingId}`).set('Authorization', BASIC).expect(200)).body.data;
    const startedAt = START + RECORDER_JOINS_MS;
    const stoppedAt = startedAt + 60_000;
    expect(api.status).toBe('UPLOADED');
    expect(rx.received[3]!.json).toEqual({
      event: 'recording.statusUpdate',
      recording: {
        id: recordingId,
        recordingId,
        meetingId,
        organizationId: ORG_ID,
        roomUUID: session.session.id,
        status: 'UPLOADED',
        outputFileName: `${meetingId}_${START}.mp4`,
        // the guide's recording times: a space and six fraction digits
        startedTime: '2026-01-01 00:00:03.000000Z',
        stoppedTime: '2026-01-01 00:01:03.000000Z',
        fileSize: SAMPLE_CLIP_BYTES,
        downloadUrl: api.download_url,
        audioDownloadUrl: api.audio_download_url,
        downloadUrlExpiry: '2026-01-08 00:01:03.000000Z',
        stopReason: "{'reason':'API_CALL','caller':{'type':'ORGANIZATION','name':'Emulator Org'}}",
        recordingDuration: 60,
      },
      meeting: {
        id: meetingId,
        sessionId: session.session.id,
        title: 'Weekly',
        status: 'LIVE',
        createdAt: iso(START),
        startedAt: iso(START),
        endedAt: null,
        organizedBy: { id: ORG_ID, name: 'Emulator Org' },
      },
    });
    expect(api.file_size).toBe(SAMPLE_CLIP_BYTES);
    // what is not known yet is left out, as in the guide's RECORDING example
    expect(Object.keys(rx.received[0]!.json.recording as object)).toEqual([
      'id',
      'recordingId',
      'meetingId',
      'organizationId',
      'roomUUID',
      'status',
      'outputFileName',
    ]);
    expect(rx.received[1]!.json.recording).toEqual({
      id: recordingId,
      recordingId,
      meetingId,
      organizationId: ORG_ID,
      roomUUID: session.session.id,
      status: 'RECORDING',
      outputFileName: `${meetingId}_${START}.mp4`,
      startedTime: '2026-01-01 00:00:03.000000Z',
    });
    expect(rx.received[2]!.json.recording).toMatchObject({ status: 'UPLOADING', stoppedTime: '2026-01-01 00:01:03.000000Z', fileSize: SAMPLE_CLIP_BYTES });
    expect(rx.received[2]!.json.recording).not.toHaveProperty('recordingDuration');
    // every attempt went out at the emulator time of its status change
    const log = (await deliveries(t)).deliveries.reverse();
    expect(log.map((d) => d.attempts[0]!.at)).toEqual([iso(START), iso(startedAt), iso(stoppedAt), iso(stoppedAt + UPLOAD_OF_ONE_MINUTE_MS)]);
  });

  it('livestreaming.statusUpdate on every livestream status change: {event, streamId, status} only', async () => {
    const rx = await receiver();
    const t = app();
    await registerWebhook(t, rx.url(), ['livestreaming.statusUpdate']);
    const meetingId = (await createMeeting(t.api)).id;
    const created = await t.api.post(`/v2/meetings/${meetingId}/livestreams`).set('Authorization', BASIC).send({}).expect(201);
    await t.deps.webhooks.outbox.idle();
    await advanceAndSettle(t, GO_LIVE_MS);
    await t.api.post(`/v2/meetings/${meetingId}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    await t.deps.webhooks.outbox.idle();
    const streamId = created.body.data.id as string;
    expect(rx.received.map((r) => r.json)).toEqual([
      { event: 'livestreaming.statusUpdate', streamId, status: 'OFFLINE' },
      { event: 'livestreaming.statusUpdate', streamId, status: 'LIVE' },
      { event: 'livestreaming.statusUpdate', streamId, status: 'OFFLINE' },
    ]);
    // the stream key is a secret for the encoder: never in a webhook
    expect(rx.received.some((r) => r.raw.toString('utf8').includes(created.body.data.stream_key as string))).toBe(false);
  });

  it('meeting.started, participantJoined, participantLeft and ended from scripted participants', async () => {
    const rx = await receiver();
    const t = app();
    await registerWebhook(t, rx.url(), ['meeting.started', 'meeting.participantJoined', 'meeting.participantLeft', 'meeting.ended']);
    const meetingId = (await createMeeting(t.api, { title: 'Sync' })).id;
    const pid = await addAndJoin(t, meetingId, 'ada');
    const sessionId = (await t.api.get(`/_emulator/meetings/${meetingId}/presence`).expect(200)).body.session.id as string;
    await advanceAndSettle(t, 90_000);
    await t.api.post(`/_emulator/meetings/${meetingId}/participants/${pid}/leave`).expect(200);
    await t.deps.webhooks.outbox.idle();

    const meeting = {
      id: meetingId,
      sessionId,
      title: 'Sync',
      createdAt: iso(START),
      startedAt: iso(START),
      organizedBy: { id: ORG_ID, name: 'Emulator Org' },
    };
    // the guide's meeting.started and participant events carry no endedAt; the status is LIVE throughout
    const live = { ...meeting, status: 'LIVE' };
    const participant = { peerId: pid, userDisplayName: 'User ada', clientSpecificId: 'ada', customParticipantId: 'ada', joinedAt: '2026-01-01T00:00:00.000Z' };
    expect(inSentOrder(rx.received, (await deliveries(t)).deliveries).map((r) => r.json)).toEqual([
      { event: 'meeting.started', meeting: live },
      { event: 'meeting.participantJoined', meeting: live, participant },
      { event: 'meeting.participantLeft', meeting: live, participant: { ...participant, leftAt: '2026-01-01T00:01:30.000Z' } },
      { event: 'meeting.ended', meeting: { ...meeting, status: 'LIVE', endedAt: '2026-01-01T00:01:30.000Z' }, reason: 'ALL_PARTICIPANTS_LEFT' },
    ]);
  });

  it('meeting.ended with HOST_ENDED_MEETING (published on the bus: no route ends a meeting by its host)', async () => {
    const rx = await receiver();
    const t = app();
    await registerWebhook(t, rx.url(), ['meeting.ended']);
    const meetingId = (await createMeeting(t.api, { title: 'Ended by host' })).id;
    const org = t.deps.services.organizations.get(ORG_ID)!;
    const meeting = t.deps.services.meetings.get(ORG_ID, meetingId);
    const ended = { ...meeting, session: { id: '00000000-0000-4000-8000-000000005e55', startedAt: START, endedAt: START + 5_000 } };
    t.deps.bus.publish({ type: 'meeting.ended', at: START + 5_000, org, meeting: ended, reason: 'HOST_ENDED_MEETING' });
    await t.deps.webhooks.outbox.idle();
    expect(rx.received.map((r) => r.json)).toEqual([
      {
        event: 'meeting.ended',
        meeting: {
          id: meetingId,
          sessionId: '00000000-0000-4000-8000-000000005e55',
          title: 'Ended by host',
          status: 'LIVE',
          createdAt: iso(START),
          startedAt: iso(START),
          endedAt: iso(START + 5_000),
          organizedBy: { id: ORG_ID, name: 'Emulator Org' },
        },
        reason: 'HOST_ENDED_MEETING',
      },
    ]);
  });
});

describe('webhooks from configuration', () => {
  it('--webhook-url receives every event of every organization, with a stable dyte-webhook-id', async () => {
    const rx = await receiver();
    const url = rx.url('/all');
    const t = app({ webhookUrls: [url] });
    const meetingId = (await createMeeting(t.api)).id;
    await startRecording(t.api, meetingId);
    await t.api.post(`/v2/meetings/${meetingId}/livestreams`).set('Authorization', BASIC).send({}).expect(201);
    await addAndJoin(t, meetingId, 'cfg');
    await t.deps.webhooks.outbox.idle();
    expect(inSentOrder(rx.received, (await deliveries(t)).deliveries).map((r) => r.json.event)).toEqual([
      'recording.statusUpdate',
      'livestreaming.statusUpdate',
      'meeting.started',
      'meeting.participantJoined',
    ]);
    const [expected] = configWebhooks([url]);
    expect(new Set(rx.received.map((r) => r.headers['dyte-webhook-id']))).toEqual(new Set([expected!.id]));
    const keys = await publishedKeys(t);
    for (const r of rx.received) expect(verifies(keys, r)).toBe(true);
    // not an organization's registration
    const listed = await t.api.get('/v2/webhooks').set('Authorization', BASIC).expect(200);
    expect(listed.body.data).toEqual([]);
  });

  it('fixture webhooks deliver like registered ones', async () => {
    const rx = await receiver();
    const f = fixtures();
    f.organizations[0]!.webhooks = [
      { id: '00000000-0000-4000-8000-0000000000f1', name: 'fx', url: rx.url('/fx'), events: ['recording.statusUpdate'], enabled: true },
    ];
    const t = app({}, { fixtures: f });
    await startRecording(t.api, (await createMeeting(t.api)).id);
    await t.deps.webhooks.outbox.idle();
    expect(rx.received.map((r) => [r.path, r.headers['dyte-webhook-id'], r.json.event])).toEqual([
      ['/fx', '00000000-0000-4000-8000-0000000000f1', 'recording.statusUpdate'],
    ]);
  });
});

describe('when an event cannot be dispatched', () => {
  it('the API call that caused it still succeeds, and the log says which event failed and why', async () => {
    const t = app();
    await registerWebhook(t, 'http://127.0.0.1:9/hook', ['recording.statusUpdate']);
    const failure = new Error('the delivery could not be recorded');
    vi.spyOn(t.deps.webhooks.outbox, 'enqueue').mockImplementation(() => {
      throw failure;
    });
    const logged = vi.spyOn(t.deps.logger, 'error');
    const recording = await startRecording(t.api, (await createMeeting(t.api)).id);
    expect(recording.status).toBe('INVOKED');
    expect(logged.mock.calls).toEqual([[{ err: failure, event: 'recording.statusChanged' }, 'webhook dispatch failed']]);
    expect((await deliveries(t)).deliveries).toEqual([]);
  });
});
