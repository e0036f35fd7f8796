// Shared steps for the lifecycle scenarios: every HTTP call goes through the OpenAPI-validating
// `api` of makeTestApp().
import { expect } from 'vitest';
import type { DomainEvent } from '../../src/domain/events.js';
import { BASIC, type TestApp } from './test-app.js';

export const SECOND = 1_000;
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

export async function createMeeting(t: TestApp, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api.post('/v2/meetings').set('Authorization', BASIC).send(body).expect(201);
  return res.body.data.id as string;
}

export async function addParticipant(t: TestApp, meetingId: string, clientId: string): Promise<string> {
  const res = await t.api
    .post(`/v2/meetings/${meetingId}/participants`)
    .set('Authorization', BASIC)
    .send({ name: clientId, preset_name: 'group_call_host', custom_participant_id: clientId })
    .expect(201);
  return res.body.data.id as string;
}

export async function startRecording(t: TestApp, meetingId: string, extra: Record<string, unknown> = {}) {
  const res = await t.api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: meetingId, ...extra }).expect(200);
  return res.body.data as Record<string, unknown> & { id: string; status: string };
}

export async function recording(t: TestApp, id: string) {
  const res = await t.api.get(`/v2/recordings/${id}`).set('Authorization', BASIC).expect(200);
  return res.body.data as Record<string, unknown> & { id: string; status: string };
}

export async function stopRecording(t: TestApp, id: string) {
  const res = await t.api.put(`/v2/recordings/${id}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200);
  return res.body.data as Record<string, unknown> & { status: string };
}

export async function createLivestream(t: TestApp, meetingId: string) {
  const res = await t.api.post(`/v2/meetings/${meetingId}/livestreams`).set('Authorization', BASIC).send({}).expect(201);
  return res.body.data as Record<string, unknown> & { id: string; status: string; playback_url: string };
}

export async function livestream(t: TestApp, id: string) {
  const res = await t.api.get(`/v2/livestreams/${id}`).set('Authorization', BASIC).expect(200);
  return res.body.data as Record<string, unknown> & { id: string; status: string };
}

export async function patchSimulator(t: TestApp, body: Record<string, unknown>) {
  const res = await t.api.patch('/_emulator/simulator').send(body).expect(200);
  return res.body as { recording: Record<string, unknown>; livestream: Record<string, unknown> };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A compact log of every domain event, for exact assertions on order and time. */
export function recordEvents(t: TestApp): string[] {
  const log: string[] = [];
  t.deps.bus.subscribe((e: DomainEvent) => log.push(describeEvent(e)));
  return log;
}

export function describeEvent(e: DomainEvent): string {
  const at = iso(e.at);
  switch (e.type) {
    case 'recording.statusChanged':
      return `${at} recording ${e.previous ?? '-'} → ${e.recording.status}`;
    case 'livestream.statusChanged':
      return `${at} livestream ${e.previous ?? '-'} → ${e.livestream.state}`;
    case 'meeting.started':
      return `${at} meeting.started`;
    case 'meeting.ended':
      return `${at} meeting.ended ${e.reason}`;
    case 'participant.joined':
      return `${at} participant.joined ${e.participant.customParticipantId}`;
    case 'participant.left':
      return `${at} participant.left ${e.participant.customParticipantId} (joined ${iso(e.joinedAt)})`;
    default:
      return `${at} ${(e as { type: string }).type}`;
  }
}

export function expectControlError(body: unknown, code: string): void {
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
}
