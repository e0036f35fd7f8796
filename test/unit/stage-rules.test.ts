// The stage's pure rules: which presets have a stage and how they reach it (as the web SDKs reckon
// stageEnabled, stageAccess and acceptStageRequests), where a participant stands on joining, every
// move from every status, and what may be published where one stands.
import { describe, expect, it } from 'vitest';
import { presetDocument, type PresetDocumentPatch } from '../../src/domain/presets/preset-document.js';
import {
  initialStage,
  managesStage,
  publishRefusal,
  stageAccess,
  stageEnabled,
  stageMove,
  type StageAction,
  type StageStatus,
} from '../../src/domain/meetings/stage-rules.js';

const preset = (patch: PresetDocumentPatch = {}) => ({ name: 'p', ...presetDocument(patch) });
const media = (audio: string, video: string, screenshare: string) =>
  ({
    media: { audio: { can_produce: audio }, video: { can_produce: video }, screenshare: { can_produce: screenshare } },
  }) as PresetDocumentPatch['permissions'];
const webinar = (permissions: PresetDocumentPatch['permissions'] = {}) => preset({ config: { view_type: 'WEBINAR' }, permissions });

describe('which presets have a stage, and how they reach it', () => {
  it.each([
    ['GROUP_CALL', undefined, false],
    ['AUDIO_ROOM', undefined, false],
    ['WEBINAR', undefined, true],
    ['LIVESTREAM', undefined, true],
    ['GROUP_CALL', true, true],
    ['WEBINAR', false, true],
  ] as const)('%s with stage_enabled %s: a stage is %s', (viewType, enabled, expected) => {
    expect(stageEnabled(preset({ config: { view_type: viewType }, permissions: enabled === undefined ? {} : { stage_enabled: enabled } }))).toBe(expected);
  });

  it.each([
    ['ALLOWED', 'NOT_ALLOWED', 'NOT_ALLOWED', undefined, 'ALLOWED'],
    ['NOT_ALLOWED', 'NOT_ALLOWED', 'ALLOWED', undefined, 'ALLOWED'],
    ['CAN_REQUEST', 'NOT_ALLOWED', 'NOT_ALLOWED', undefined, 'CAN_REQUEST'],
    ['CAN_REQUEST', 'ALLOWED', 'NOT_ALLOWED', undefined, 'ALLOWED'],
    ['NOT_ALLOWED', 'NOT_ALLOWED', 'NOT_ALLOWED', undefined, 'NOT_ALLOWED'],
    ['ALLOWED', 'ALLOWED', 'ALLOWED', 'CAN_REQUEST', 'CAN_REQUEST'],
    ['ALLOWED', 'ALLOWED', 'ALLOWED', 'NOT_ALLOWED', 'NOT_ALLOWED'],
    ['NOT_ALLOWED', 'NOT_ALLOWED', 'NOT_ALLOWED', 'ALLOWED', 'ALLOWED'],
  ] as const)('media %s/%s/%s, stage_access %s: stage access %s', (audio, video, screen, given, expected) => {
    const permissions = { ...media(audio, video, screen), ...(given ? { stage_access: given } : {}) };
    expect(stageAccess(webinar(permissions))).toBe(expected);
  });

  it.each([
    [{}, false],
    [{ accept_stage_requests: true }, true],
    [{ can_accept_production_requests: true }, true],
  ] as const)('a webinar preset with %o manages the stage: %s', (permissions, expected) => {
    expect(managesStage(webinar(permissions))).toBe(expected);
  });

  it('without a stage nobody manages it, whatever the permissions say', () => {
    expect(managesStage(preset({ permissions: { accept_stage_requests: true, can_accept_production_requests: true } }))).toBe(false);
  });

  it.each([
    ['a group call participant', preset(), 'ON_STAGE'],
    ['a group call participant who may not publish', preset({ permissions: media('NOT_ALLOWED', 'NOT_ALLOWED', 'NOT_ALLOWED') }), 'ON_STAGE'],
    ['a webinar presenter', webinar(), 'ON_STAGE'],
    ['a webinar viewer who may ask', webinar(media('CAN_REQUEST', 'CAN_REQUEST', 'NOT_ALLOWED')), 'OFF_STAGE'],
    ['a webinar viewer', webinar(media('NOT_ALLOWED', 'NOT_ALLOWED', 'NOT_ALLOWED')), 'OFF_STAGE'],
  ] as const)('%s joins %s', (_who, p, expected) => {
    expect(initialStage(p)).toBe(expected);
  });
});

describe('the moves', () => {
  const ON = 'ON_STAGE';
  const OFF = 'OFF_STAGE';
  const REQ = 'REQUESTED_TO_JOIN_STAGE';
  const ACC = 'ACCEPTED_TO_JOIN_STAGE';
  // A viewer who may ask (CAN_REQUEST): every status, every move.
  it.each<[StageStatus, StageAction, StageStatus | string]>([
    [OFF, 'request', REQ],
    [REQ, 'request', 'cannot ask for the stage while REQUESTED_TO_JOIN_STAGE'],
    [ACC, 'request', 'cannot ask for the stage while ACCEPTED_TO_JOIN_STAGE'],
    [ON, 'request', 'cannot ask for the stage while ON_STAGE'],
    [OFF, 'cancel', 'has no stage request to cancel (OFF_STAGE)'],
    [REQ, 'cancel', OFF],
    [ACC, 'cancel', 'has no stage request to cancel (ACCEPTED_TO_JOIN_STAGE)'],
    [ON, 'cancel', 'has no stage request to cancel (ON_STAGE)'],
    [OFF, 'grant', ACC],
    [REQ, 'grant', ACC],
    [ACC, 'grant', 'was let on the stage already'],
    [ON, 'grant', 'is on the stage already'],
    [OFF, 'deny', 'has not asked for the stage (OFF_STAGE)'],
    [REQ, 'deny', OFF],
    [ACC, 'deny', OFF],
    [ON, 'deny', 'has not asked for the stage (ON_STAGE)'],
    [OFF, 'join', 'must be let on the stage first (OFF_STAGE)'],
    [REQ, 'join', 'must be let on the stage first (REQUESTED_TO_JOIN_STAGE)'],
    [ACC, 'join', ON],
    [ON, 'join', ON],
    [OFF, 'leave', OFF],
    [REQ, 'leave', OFF],
    [ACC, 'leave', OFF],
    [ON, 'leave', OFF],
    [OFF, 'kick', 'is not on the stage (OFF_STAGE)'],
    [REQ, 'kick', 'is not on the stage (REQUESTED_TO_JOIN_STAGE)'],
    [ACC, 'kick', OFF],
    [ON, 'kick', OFF],
  ])('CAN_REQUEST: from %s, %s → %s', (from, action, expected) => {
    expect(stageMove(from, action, 'CAN_REQUEST')).toEqual(expected.includes(' ') ? { refusal: expected } : { to: expected });
  });

  it.each<[StageStatus, StageAction, StageStatus | string]>([
    [OFF, 'request', 'joins the stage without asking (stage access is ALLOWED)'],
    [OFF, 'join', ON],
    // Joining at will is from off the stage: a request made before the preset allowed it waits for a host.
    [REQ, 'join', 'must be let on the stage first (REQUESTED_TO_JOIN_STAGE)'],
    [OFF, 'grant', ACC],
    [ON, 'kick', OFF],
  ])('ALLOWED: from %s, %s → %s', (from, action, expected) => {
    expect(stageMove(from, action, 'ALLOWED')).toEqual(expected.includes(' ') ? { refusal: expected } : { to: expected });
  });

  it.each<[StageStatus, StageAction, StageStatus | string]>([
    [OFF, 'request', 'may not go on the stage (stage access is NOT_ALLOWED)'],
    [OFF, 'grant', 'may not go on the stage (stage access is NOT_ALLOWED)'],
    [ACC, 'join', 'may not go on the stage (stage access is NOT_ALLOWED)'],
    [OFF, 'leave', OFF],
    [OFF, 'cancel', 'has no stage request to cancel (OFF_STAGE)'],
  ])('NOT_ALLOWED: from %s, %s → %s', (from, action, expected) => {
    expect(stageMove(from, action, 'NOT_ALLOWED')).toEqual(expected.includes(' ') ? { refusal: expected } : { to: expected });
  });
});

describe('what may be published where one stands', () => {
  it('without a stage the preset decides: ALLOWED only', () => {
    expect(publishRefusal(preset(), 'video', 'ON_STAGE')).toBeUndefined();
    expect(publishRefusal(preset({ permissions: media('CAN_REQUEST', 'NOT_ALLOWED', 'ALLOWED') }), 'audio', 'ON_STAGE')).toBe(
      'The preset p may not produce audio (permissions.media.audio.can_produce is CAN_REQUEST)',
    );
    expect(publishRefusal(preset({ permissions: media('CAN_REQUEST', 'NOT_ALLOWED', 'ALLOWED') }), 'video', 'ON_STAGE')).toBe(
      'The preset p may not produce video (permissions.media.video.can_produce is NOT_ALLOWED)',
    );
  });

  it.each([
    ['ALLOWED', 'ON_STAGE', undefined],
    ['CAN_REQUEST', 'ON_STAGE', undefined],
    ['ALLOWED', 'OFF_STAGE', 'Only the stage publishes: the preset p may share a screen once on the stage, and this participant is OFF_STAGE'],
    [
      'CAN_REQUEST',
      'ACCEPTED_TO_JOIN_STAGE',
      'Only the stage publishes: the preset p may share a screen once on the stage, and this participant is ACCEPTED_TO_JOIN_STAGE',
    ],
    ['NOT_ALLOWED', 'ON_STAGE', 'The preset p may not share a screen (permissions.media.screenshare.can_produce is NOT_ALLOWED)'],
  ] as const)('with a stage, a screen share %s from %s: %s', (permission, status, expected) => {
    expect(publishRefusal(webinar(media('ALLOWED', 'ALLOWED', permission)), 'screenshare', status)).toBe(expected);
  });
});
