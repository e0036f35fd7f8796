// Every event, as a receiver gets it, against the field set and formats of the production webhook
// guide's examples (written out in test/helpers/documented.ts): one meeting goes through joins,
// chat, speech, a recording that stops by itself once everyone left, a livestream, and the end.
import { beforeAll, describe, expect, it } from 'vitest';
import { RecordingTransport } from '../../src/webhooks/recording-transport.js';
import { addParticipant, createLivestream, createMeeting, startRecording } from '../helpers/builders.js';
import { GO_LIVE_MS, NUMBER, RECORDER_JOINS_MS, WEBHOOK_EVENTS, WEBHOOK_FORMS, type WebhookForm } from '../helpers/documented.js';
import { chat, join, leave, speak } from '../helpers/session-helpers.js';
import { BASIC, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { registerWebhook } from '../helpers/webhook-receiver.js';

/** Where `value` departs from `form`: each key the form lists, no other key, each leaf in its format. */
function departures(value: unknown, form: WebhookForm, path = '$'): string[] {
  if (Array.isArray(form)) {
    return form.some((alternative: WebhookForm) => departures(value, alternative, path).length === 0)
      ? []
      : [`${path}: ${JSON.stringify(value)} is none of the forms`];
  }
  if (form instanceof RegExp) return typeof value === 'string' && form.test(value) ? [] : [`${path}: ${JSON.stringify(value)} does not match ${String(form)}`];
  if (form === NUMBER) return typeof value === 'number' && Number.isFinite(value) ? [] : [`${path}: ${JSON.stringify(value)} is not a number`];
  if (form === null || typeof form === 'string') return value === form ? [] : [`${path}: ${JSON.stringify(value)} is not ${JSON.stringify(form)}`];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: ${JSON.stringify(value)} is not an object`];
  const fields = form as Record<string, WebhookForm>;
  const record = value as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => !(k in fields));
  return [
    ...extra.map((k) => `${path}.${k}: not in the guide's example`),
    ...Object.keys(fields).flatMap((k) => (k in record ? departures(record[k], fields[k]!, `${path}.${k}`) : [`${path}.${k}: missing`])),
  ];
}

async function settle(t: TestApp, ms = 0): Promise<void> {
  if (ms > 0) t.advance(ms);
  await t.deps.webhooks.outbox.idle();
}

interface Sent {
  headers: Record<string, string>;
  body: Record<string, unknown> & { event: string };
}

/** One meeting's whole life with every event subscribed; the requests as the transport saw them. */
async function aWholeMeeting(): Promise<{ sent: Sent[]; webhookId: string }> {
  const t = makeTestApp();
  const transport = new RecordingTransport();
  t.deps.webhooks.outbox.useTransport(transport);
  try {
    const webhookId = await registerWebhook(t, 'http://127.0.0.1:9/hook', [...WEBHOOK_EVENTS]);
    const meetingId = (
      await createMeeting(t.api, { title: 'Guide forms', ai_config: { transcription: { language: 'en-US' }, summarization: { word_limit: 150 } } })
    ).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'Alice', custom_participant_id: 'alice' })).id;
    const bob = (await addParticipant(t.api, meetingId, { name: 'Bob', custom_participant_id: 'bob' })).id;
    await join(t, meetingId, alice);
    await startRecording(t.api, meetingId);
    await settle(t, RECORDER_JOINS_MS);
    await join(t, meetingId, bob);
    await chat(t, meetingId, bob, 'hello');
    await speak(t, meetingId, alice, 'Good morning');
    await createLivestream(t.api, meetingId);
    await settle(t, GO_LIVE_MS);
    await t.api.post(`/v2/meetings/${meetingId}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    await settle(t, 60_000);
    await leave(t, meetingId, bob);
    await leave(t, meetingId, alice);
    // docs/time-and-lifecycles.md: a recording stops by itself a minute after the last one left;
    // the upload of about a minute of recording ends well within ten more.
    await settle(t, 60_000);
    await settle(t, 600_000);
    return { sent: transport.requests.map((r) => ({ headers: r.headers, body: JSON.parse(r.body.toString('utf8')) })), webhookId };
  } finally {
    t.deps.webhooks.outbox.close();
  }
}

describe("each event in the guide's field set and formats", () => {
  let whole: { sent: Sent[]; webhookId: string };
  beforeAll(async () => {
    whole = await aWholeMeeting();
  });

  it('sends every event of the guide, each with dyte-webhook-id, dyte-uuid, dyte-signature and JSON', async () => {
    const { sent, webhookId } = whole;
    expect(new Set(sent.map((s) => s.body.event))).toEqual(new Set(WEBHOOK_EVENTS));
    for (const { headers } of sent) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers['dyte-webhook-id']).toBe(webhookId);
      expect(headers['dyte-uuid']).toMatch(/^[0-9a-f-]{36}$/);
      expect(headers['dyte-signature']).toMatch(/^[A-Za-z0-9+/]+=*$/);
    }
  });

  it.each([
    'meeting.started',
    'meeting.ended',
    'meeting.participantJoined',
    'meeting.participantLeft',
    'meeting.chatSynced',
    'meeting.transcript',
    'meeting.summary',
    'livestreaming.statusUpdate',
  ] as const)('%s', async (event) => {
    const bodies = whole.sent.map((s) => s.body).filter((b) => b.event === event);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(departures(body, WEBHOOK_FORMS[event])).toEqual([]);
  });

  it.each(['RECORDING', 'UPLOADING', 'UPLOADED'] as const)('recording.statusUpdate for %s', async (status) => {
    const bodies = whole.sent.map((s) => s.body).filter((b) => b.event === 'recording.statusUpdate');
    const body = bodies.find((b) => (b.recording as { status: string }).status === status)!;
    expect(departures(body, WEBHOOK_FORMS['recording.statusUpdate'][status])).toEqual([]);
    // roomUUID is the session the recording is in: the payload's meeting.sessionId
    expect((body.recording as { roomUUID: string }).roomUUID).toBe((body.meeting as { sessionId: string }).sessionId);
  });

  it("a stop after everyone left reads as the guide's own example", async () => {
    const uploaded = whole.sent.map((s) => s.body).find((b) => (b.recording as { status?: string } | undefined)?.status === 'UPLOADED')!;
    expect((uploaded.recording as { stopReason: string }).stopReason).toBe("{'reason':'ALL_PEERS_LEFT','caller':{'type':'INTERNAL'}}");
  });

  it('livestreaming.statusUpdate goes OFFLINE, LIVE, OFFLINE', async () => {
    const statuses = whole.sent.filter((s) => s.body.event === 'livestreaming.statusUpdate').map((s) => s.body.status);
    expect(statuses).toEqual(['OFFLINE', 'LIVE', 'OFFLINE']);
  });
});
