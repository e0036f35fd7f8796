import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/domain/events.js';
import { DEFAULT_AUDIO, DEFAULT_VIDEO } from '../../src/domain/recordings/recording-config.js';
import type { Livestream, LivestreamState, Meeting, Organization, Participant, Recording } from '../../src/domain/models.js';
import { webhookPayloadFor } from '../../src/webhooks/payloads.js';

const T = Date.parse('2026-01-01T00:00:00.000Z');
const keysOf = (v: unknown): string[] => (v !== null && typeof v === 'object' ? Object.entries(v).flatMap(([k, child]) => [k, ...keysOf(child)]) : []);

const org: Organization = { id: '00000000-0000-4000-8000-000000000001', name: 'Emulator Org', apiKey: 'secret-api-key' };

const meeting: Meeting = {
  id: '11111111-1111-4111-8111-111111111111',
  orgId: org.id,
  title: 'Standup',
  preferredRegion: null,
  waitingRoom: false,
  recordOnStart: false,
  liveStreamOnStart: false,
  persistChat: false,
  summarizeOnEnd: false,
  status: 'ACTIVE',
  recordingConfig: null,
  aiConfig: null,
  createdAt: T,
  updatedAt: T,
  session: { id: '22222222-2222-4222-8222-222222222222', startedAt: T + 1_000, endedAt: null },
};

const participant: Participant = {
  id: '33333333-3333-4333-8333-333333333333',
  orgId: org.id,
  meetingId: meeting.id,
  name: 'Ada',
  picture: null,
  customParticipantId: 'ada-1',
  presetId: '00000000-0000-4000-8000-0000000000a1',
  presetName: 'group_call_host',
  createdAt: T,
  updatedAt: T,
  joinedAt: T + 2_000,
};

const recording: Recording = {
  id: '44444444-4444-4444-8444-444444444444',
  orgId: org.id,
  meetingId: meeting.id,
  status: 'UPLOADED',
  outputFileName: `${meeting.id}_${T}.mp4`,
  invokedTime: T,
  startedTime: T + 3_000,
  stoppedTime: T + 63_000,
  sessionId: '22222222-2222-4222-8222-222222222222',
  fileSize: 12345,
  downloadUrl: 'http://emulator.test/media/r.mp4?sig=x',
  audioDownloadUrl: 'http://emulator.test/media/r.m4a?sig=x',
  downloadUrlExpiry: T + 63_000 + 7 * 86_400_000,
  recordingDuration: 60,
  storageConfig: {
    id: '55555555-5555-4555-8555-555555555555',
    type: 'aws',
    region: 'us-east-1',
    bucket: 'b',
    path: 'p',
    host: null,
    username: null,
    port: null,
    authMethod: null,
  },
  startReason: { reason: 'API_CALL', caller: { name: 'Emulator Org', type: 'ORGANIZATION', user_id: null } },
  stopReason: { reason: 'API_CALL', caller: { name: 'Ada', type: 'USER', user_id: participant.id } },
  maxSeconds: 86_400,
  allowMultipleRecordings: false,
  uploadToBucket: true,
  exportAudio: true,
  kind: 'composite',
  video: { ...DEFAULT_VIDEO },
  audio: { ...DEFAULT_AUDIO },
  recordedMs: 60_000,
  spanStartedAt: null,
  errorReason: null,
};

const livestream = (state: LivestreamState): Livestream => ({
  id: '66666666-6666-4666-8666-666666666666',
  orgId: org.id,
  meetingId: meeting.id,
  state,
  name: null,
  streamKey: 'stream-key-secret',
  disabled: false,
  createdAt: T,
  updatedAt: T,
  liveMs: 0,
  liveSince: null,
  stoppedAt: null,
});

const meetingPayload = {
  id: meeting.id,
  sessionId: '22222222-2222-4222-8222-222222222222',
  title: 'Standup',
  status: 'LIVE',
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: '2026-01-01T00:00:01.000Z',
  organizedBy: { id: org.id, name: 'Emulator Org' },
};
const session = { id: '22222222-2222-4222-8222-222222222222', startedAt: T + 1_000, endedAt: null };

describe('webhook payloads (as docs/webhooks.md shows them)', () => {
  it('recording.statusUpdate: camelCase, roomUUID the session id, spaced microsecond times, stopReason as text', () => {
    const e: DomainEvent = { type: 'recording.statusChanged', at: T + 70_000, org, meeting, session, recording, previous: 'UPLOADING' };
    expect(webhookPayloadFor(e)).toEqual({
      event: 'recording.statusUpdate',
      recording: {
        id: recording.id,
        recordingId: recording.id,
        meetingId: meeting.id,
        organizationId: org.id,
        roomUUID: '22222222-2222-4222-8222-222222222222',
        status: 'UPLOADED',
        outputFileName: recording.outputFileName,
        startedTime: '2026-01-01 00:00:03.000000Z',
        stoppedTime: '2026-01-01 00:01:03.000000Z',
        fileSize: 12345,
        downloadUrl: 'http://emulator.test/media/r.mp4?sig=x',
        audioDownloadUrl: 'http://emulator.test/media/r.m4a?sig=x',
        downloadUrlExpiry: '2026-01-08 00:01:03.000000Z',
        stopReason: "{'reason':'API_CALL','caller':{'type':'USER','name':'Ada','userId':'33333333-3333-4333-8333-333333333333'}}",
        recordingDuration: 60,
      },
      meeting: { ...meetingPayload, endedAt: null },
    });
  });

  it.each([
    [
      'the emulator (empty meeting)',
      { reason: 'ALL_PEERS_LEFT', caller: { name: null, type: 'SYSTEM', user_id: null } },
      "{'reason':'ALL_PEERS_LEFT','caller':{'type':'INTERNAL'}}",
    ],
    [
      'max_seconds',
      { reason: 'API_CALL', caller: { name: 'max_seconds', type: 'SYSTEM', user_id: null } },
      "{'reason':'API_CALL','caller':{'type':'INTERNAL','name':'max_seconds'}}",
    ],
    [
      'a failure',
      { reason: 'INTERNAL_ERROR', caller: { name: null, type: 'SYSTEM', user_id: null } },
      "{'reason':'INTERNAL_ERROR','caller':{'type':'INTERNAL'}}",
    ],
    [
      'the organization',
      { reason: 'API_CALL', caller: { name: 'Emulator Org', type: 'ORGANIZATION', user_id: null } },
      "{'reason':'API_CALL','caller':{'type':'ORGANIZATION','name':'Emulator Org'}}",
    ],
    [
      'a name with quotes',
      { reason: 'API_CALL', caller: { name: `O'Brien "Bo"`, type: 'USER', user_id: 'u-1' } },
      `{'reason':'API_CALL','caller':{'type':'USER','name':'O\\'Brien "Bo"','userId':'u-1'}}`,
    ],
  ] as const)('stopReason of a stop by %s', (_who, stopReason, text) => {
    const stopped: Recording = { ...recording, stopReason: { reason: stopReason.reason, caller: { ...stopReason.caller } } };
    const payload = webhookPayloadFor({ type: 'recording.statusChanged', at: T, org, meeting, session, recording: stopped, previous: 'UPLOADING' });
    expect(payload).toMatchObject({ recording: { stopReason: text } });
  });

  it('recording.statusUpdate for INVOKED: what is not known yet is left out, and never storage secrets or the API key', () => {
    const invoked: Recording = {
      ...recording,
      status: 'INVOKED',
      startedTime: null,
      stoppedTime: null,
      sessionId: null,
      fileSize: null,
      downloadUrl: null,
      audioDownloadUrl: null,
      downloadUrlExpiry: null,
      recordingDuration: null,
      stopReason: null,
    };
    const noSession: Meeting = { ...meeting, session: null };
    const payload = webhookPayloadFor({ type: 'recording.statusChanged', at: T, org, meeting: noSession, session: null, recording: invoked, previous: null });
    expect(payload).toEqual({
      event: 'recording.statusUpdate',
      recording: {
        id: recording.id,
        recordingId: recording.id,
        meetingId: meeting.id,
        organizationId: org.id,
        status: 'INVOKED',
        outputFileName: recording.outputFileName,
      },
      meeting: { ...meetingPayload, sessionId: null, startedAt: null, endedAt: null },
    });
    const text = JSON.stringify(payload);
    expect(text).not.toContain('secret-api-key');
    expect(text).not.toContain('storage');
    expect(keysOf(payload).filter((k) => k.includes('_'))).toEqual([]); // camelCase keys only
  });

  it("recording.statusUpdate after a later session started: the meeting and roomUUID are the recording's own session", () => {
    const later: Meeting = { ...meeting, session: { id: '77777777-7777-4777-8777-777777777777', startedAt: T + 500_000, endedAt: null } };
    const own = { id: '22222222-2222-4222-8222-222222222222', startedAt: T + 1_000, endedAt: T + 200_000 };
    const payload = webhookPayloadFor({
      type: 'recording.statusChanged',
      at: T + 600_000,
      org,
      meeting: later,
      session: own,
      recording,
      previous: 'UPLOADING',
    });
    expect(payload).toMatchObject({
      recording: { roomUUID: '22222222-2222-4222-8222-222222222222' },
      meeting: { sessionId: '22222222-2222-4222-8222-222222222222', startedAt: '2026-01-01T00:00:01.000Z', endedAt: '2026-01-01T00:03:20.000Z' },
    });
  });

  it('an INACTIVE meeting keeps its v2 status word (the guide shows only LIVE)', () => {
    const inactive: Meeting = { ...meeting, status: 'INACTIVE' };
    expect(webhookPayloadFor({ type: 'meeting.started', at: T + 1_000, org, meeting: inactive })).toEqual({
      event: 'meeting.started',
      meeting: { ...meetingPayload, status: 'INACTIVE' },
    });
  });

  it.each([
    ['OFFLINE', 'OFFLINE'],
    ['LIVE', 'LIVE'],
    ['IDLE', 'IDLE'],
    ['STOPPED', 'OFFLINE'],
    ['ERRORED', 'OFFLINE'],
  ] as const)('livestreaming.statusUpdate for %s is {event, streamId, status: %s} and nothing else', (state, wire) => {
    expect(webhookPayloadFor({ type: 'livestream.statusChanged', at: T, org, meeting, livestream: livestream(state), previous: null })).toEqual({
      event: 'livestreaming.statusUpdate',
      streamId: '66666666-6666-4666-8666-666666666666',
      status: wire,
    });
  });

  it('meeting.started: the meeting with its session, LIVE, without endedAt', () => {
    expect(webhookPayloadFor({ type: 'meeting.started', at: T + 1_000, org, meeting })).toEqual({ event: 'meeting.started', meeting: meetingPayload });
  });

  it.each(['HOST_ENDED_MEETING', 'ALL_PARTICIPANTS_LEFT'] as const)('meeting.ended adds reason %s and endedAt; the status stays LIVE', (reason) => {
    const ended: Meeting = { ...meeting, session: { ...meeting.session!, endedAt: T + 90_000 } };
    expect(webhookPayloadFor({ type: 'meeting.ended', at: T + 90_000, org, meeting: ended, reason })).toEqual({
      event: 'meeting.ended',
      meeting: { ...meetingPayload, status: 'LIVE', endedAt: '2026-01-01T00:01:30.000Z' },
      reason,
    });
  });

  it('meeting.participantJoined: the participant with joinedAt and no leftAt', () => {
    const payload = webhookPayloadFor({ type: 'participant.joined', at: T + 2_000, org, meeting, participant });
    expect(payload).toEqual({
      event: 'meeting.participantJoined',
      meeting: meetingPayload,
      participant: {
        peerId: participant.id,
        userDisplayName: 'Ada',
        clientSpecificId: 'ada-1',
        customParticipantId: 'ada-1',
        joinedAt: '2026-01-01T00:00:02.000Z',
      },
    });
    expect(payload && 'participant' in payload && 'leftAt' in payload.participant).toBe(false);
  });

  it('meeting.participantLeft: joinedAt from the event, leftAt the time of the leave', () => {
    const left: Participant = { ...participant, joinedAt: null };
    expect(webhookPayloadFor({ type: 'participant.left', at: T + 50_000, org, meeting, participant: left, joinedAt: T + 2_000, cause: 'left' })).toEqual({
      event: 'meeting.participantLeft',
      meeting: meetingPayload,
      participant: {
        peerId: participant.id,
        userDisplayName: 'Ada',
        clientSpecificId: 'ada-1',
        customParticipantId: 'ada-1',
        joinedAt: '2026-01-01T00:00:02.000Z',
        leftAt: '2026-01-01T00:00:50.000Z',
      },
    });
  });
});
