// Shared steps for the lifecycle scenarios (the resources themselves come from builders.ts):
// every HTTP call goes through the OpenAPI-validating `api` of makeTestApp().
import { expect } from 'vitest';
import type { DomainEvent } from '../../src/domain/events.js';
import type { TestApp } from './test-app.js';

export const SECOND = 1_000;
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

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
