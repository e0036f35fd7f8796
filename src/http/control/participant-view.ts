// A participant as the control API's views of a meeting's rooms name them (who waits in the waiting
// room, who stands where on the stage): its id, custom id, name and preset. One shape, so that each
// view adds only what it says of them.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import type { Participant } from '../../domain/models.js';

export const participantViewSchema = lazy(() =>
  z.object({
    participant_id: z.uuid(),
    custom_participant_id: z.string(),
    name: z.string().nullable(),
    preset_name: z.string(),
  }),
);

export function participantView(p: Participant): z.infer<ReturnType<typeof participantViewSchema>> {
  return { participant_id: p.id, custom_participant_id: p.customParticipantId, name: p.name, preset_name: p.presetName };
}
