// Scripted steps for the session history tests: joins, leaves, chat and speech through the
// control API, and a meeting with participants already in it. Every call goes through the
// OpenAPI-validating `api` of makeTestApp().
import type { DomainEvent } from '../../src/domain/events.js';
import { webhookPayloadFor, type WebhookPayload } from '../../src/webhooks/payloads.js';
import { addParticipant, createMeeting } from './builders.js';
import type { TestApp } from './test-app.js';

const base = (meetingId: string, pid: string) => `/_emulator/meetings/${meetingId}/participants/${pid}`;

export async function join(t: TestApp, meetingId: string, pid: string): Promise<string> {
  return (await t.api.post(`${base(meetingId, pid)}/join`).expect(200)).body.session.id;
}

export async function leave(t: TestApp, meetingId: string, pid: string): Promise<void> {
  await t.api.post(`${base(meetingId, pid)}/leave`).expect(200);
}

export async function chat(t: TestApp, meetingId: string, pid: string, message: string): Promise<void> {
  await t.api
    .post(`${base(meetingId, pid)}/chat`)
    .send({ message })
    .expect(200);
}

export async function speak(t: TestApp, meetingId: string, pid: string, text: string): Promise<void> {
  await t.api
    .post(`${base(meetingId, pid)}/transcript`)
    .send({ text })
    .expect(200);
}

export interface LiveMeeting {
  meetingId: string;
  sessionId: string;
  /** Participant ids by custom participant id. */
  ids: Record<string, string>;
}

/** A meeting whose participants (named by their custom ids) join in order, at the current time. */
export async function liveMeeting(t: TestApp, names: string[], meeting: Record<string, unknown> = { title: 'Standup' }): Promise<LiveMeeting> {
  const meetingId = (await createMeeting(t.api, meeting)).id;
  const ids: Record<string, string> = {};
  for (const name of names) ids[name] = (await addParticipant(t.api, meetingId, { name, custom_participant_id: name })).id;
  let sessionId = '';
  for (const name of names) sessionId = await join(t, meetingId, ids[name]!);
  return { meetingId, sessionId, ids };
}

/** The webhook payloads the domain events from now on become, in order. */
export function webhookPayloads(t: TestApp): WebhookPayload[] {
  const seen: WebhookPayload[] = [];
  t.deps.bus.subscribe((e: DomainEvent) => {
    const p = webhookPayloadFor(e);
    if (p) seen.push(p);
  });
  return seen;
}
