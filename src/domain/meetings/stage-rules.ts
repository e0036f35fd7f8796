// The stage as pure rules: which presets have one, how a participant reaches it, who may manage
// it, the moves between stage statuses (one table), and what a participant may publish where they
// stand. Read from the web SDKs (both reckon a preset's stage the same way) and the RealtimeKit
// API's preset document; the services apply the moves (stage.service.ts).
import type { PresetDocument } from '../presets/preset-document.js';

/** A participant's place with regard to the stage, spelled as the SDKs spell it. */
export const STAGE_STATUSES = ['ON_STAGE', 'OFF_STAGE', 'REQUESTED_TO_JOIN_STAGE', 'ACCEPTED_TO_JOIN_STAGE'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

export type StageAccess = 'ALLOWED' | 'NOT_ALLOWED' | 'CAN_REQUEST';

/** A participant's own moves, and a host's moves on others. */
export type OwnStageAction = 'request' | 'cancel' | 'join' | 'leave';
export type HostStageAction = 'grant' | 'deny' | 'kick';
export type StageAction = OwnStageAction | HostStageAction;

/** What a participant publishes: the permission's name in permissions.media. */
export type PublishKind = 'audio' | 'video' | 'screenshare';

type Preset = Pick<PresetDocument, 'config' | 'permissions'>;

/** Whether the preset's participants have a stage: WEBINAR and LIVESTREAM always, others with stage_enabled. */
export function stageEnabled(preset: Preset): boolean {
  return preset.permissions.stage_enabled === true || preset.config.view_type === 'WEBINAR' || preset.config.view_type === 'LIVESTREAM';
}

/** How they reach the stage: stage_access when given, else the media permissions (any ALLOWED: ALLOWED; any CAN_REQUEST: CAN_REQUEST). */
export function stageAccess(preset: Preset): StageAccess {
  const given = preset.permissions.stage_access;
  if (given) return given;
  const media = [preset.permissions.media.audio, preset.permissions.media.video, preset.permissions.media.screenshare].map((m) => m.can_produce);
  if (media.includes('ALLOWED')) return 'ALLOWED';
  return media.includes('CAN_REQUEST') ? 'CAN_REQUEST' : 'NOT_ALLOWED';
}

/** Whether they may grant, deny and remove others' stage access. */
export function managesStage(preset: Preset): boolean {
  return stageEnabled(preset) && (preset.permissions.accept_stage_requests === true || preset.permissions.can_accept_production_requests);
}

/**
 * Where a participant stands when they join: on the stage without one (everyone publishes), and
 * with one on it if they may join at will (a presenter), else off it (a viewer).
 */
export function initialStage(preset: Preset): StageStatus {
  return !stageEnabled(preset) || stageAccess(preset) === 'ALLOWED' ? 'ON_STAGE' : 'OFF_STAGE';
}

/** Where a move leads, or why it may not be made (the rest of a sentence whose subject is the participant). */
export function stageMove(from: StageStatus, action: StageAction, access: StageAccess): { to: StageStatus } | { refusal: string } {
  const refuse = (refusal: string) => ({ refusal });
  if (access === 'NOT_ALLOWED' && (action === 'request' || action === 'grant' || action === 'join'))
    return refuse('may not go on the stage (stage access is NOT_ALLOWED)');
  switch (action) {
    case 'request':
      if (from !== 'OFF_STAGE') return refuse(`cannot ask for the stage while ${from}`);
      if (access === 'ALLOWED') return refuse('joins the stage without asking (stage access is ALLOWED)');
      return { to: 'REQUESTED_TO_JOIN_STAGE' };
    case 'cancel':
      return from === 'REQUESTED_TO_JOIN_STAGE' ? { to: 'OFF_STAGE' } : refuse(`has no stage request to cancel (${from})`);
    case 'grant':
      if (from === 'ON_STAGE') return refuse('is on the stage already');
      if (from === 'ACCEPTED_TO_JOIN_STAGE') return refuse('was let on the stage already');
      return { to: 'ACCEPTED_TO_JOIN_STAGE' };
    case 'deny':
      return from === 'REQUESTED_TO_JOIN_STAGE' || from === 'ACCEPTED_TO_JOIN_STAGE' ? { to: 'OFF_STAGE' } : refuse(`has not asked for the stage (${from})`);
    case 'join':
      if (from === 'ON_STAGE' || from === 'ACCEPTED_TO_JOIN_STAGE' || (from === 'OFF_STAGE' && access === 'ALLOWED')) return { to: 'ON_STAGE' };
      return refuse(`must be let on the stage first (${from})`);
    case 'leave':
      return { to: 'OFF_STAGE' };
    case 'kick':
      return from === 'ON_STAGE' || from === 'ACCEPTED_TO_JOIN_STAGE' ? { to: 'OFF_STAGE' } : refuse(`is not on the stage (${from})`);
  }
}

/**
 * Why a participant may not publish this kind now, or undefined. Without a stage the preset's
 * permission decides (ALLOWED only); with one, only the stage publishes, and there CAN_REQUEST
 * counts as ALLOWED (as the SDKs reckon canProduce*).
 */
export function publishRefusal(preset: Preset & { name: string }, kind: PublishKind, status: StageStatus): string | undefined {
  const permission = preset.permissions.media[kind].can_produce;
  const label = kind === 'screenshare' ? 'share a screen' : `produce ${kind}`;
  const refused = `The preset ${preset.name} may not ${label} (permissions.media.${kind}.can_produce is ${permission})`;
  if (!stageEnabled(preset)) return permission === 'ALLOWED' ? undefined : refused;
  if (permission === 'NOT_ALLOWED') return refused;
  return status === 'ON_STAGE'
    ? undefined
    : `Only the stage publishes: the preset ${preset.name} may ${label} once on the stage, and this participant is ${status}`;
}
