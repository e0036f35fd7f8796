// Track recordings (production's "Start Track Recording for a Meeting", in beta there): a
// recording of the meeting's tracks, mapped by the "default" layer to its outputs. Production
// documents no answer beyond 200; the emulator answers the recording it started, which lives the
// same life as any other (INVOKED → RECORDING → … → UPLOADED, the same webhooks, listed by
// GET /v2/recordings, stopped by PUT /v2/recordings/{id}).
import { orgOf } from '../auth.js';
import { route } from '../route.js';
import { ok, recordingDto } from './mappers.js';
import { envelope, recordingSchema } from './schemas.js';
import { startTrackRecordingBody } from './track-recordings.schemas.js';
import { callerOf } from './recordings.routes.js';
import { storageConfigFrom } from '../../domain/recordings/recording-config.js';
import { takeStorageSecrets } from '../../domain/recordings/storage-secrets.js';

export const trackRecordingRoutes = [
  route({
    method: 'post',
    path: '/v2/recordings/track',
    api: 'v2',
    // Production takes Basic credentials only here, not a participant token.
    auth: 'basic',
    tag: 'Recordings',
    summary: "Start a track recording of a meeting (the default layer's outputs; then the same lifecycle as any recording)",
    body: startTrackRecordingBody,
    responses: {
      200: { description: 'The recording, status INVOKED', schema: () => envelope(recordingSchema()) },
      404: { description: 'No meeting with that meeting_id' },
      409: { description: 'The meeting already has an active recording' },
    },
    handler: async ({ deps, auth, body }) => {
      const org = orgOf(auth);
      const layer = body.layers.default;
      const storage = layer.outputs?.find((o) => o.type === 'STORAGE_CONFIG')?.storage_config;
      const recording = await deps.services.recordings.startFromApi(
        org.id,
        {
          meetingId: body.meeting_id,
          storageConfig: storage ? storageConfigFrom(storage) : null,
          storageSecrets: storage ? takeStorageSecrets(storage) : undefined,
          fileNamePrefix: layer.file_name_prefix,
          maxSeconds: body.max_seconds,
          kind: 'track',
        },
        callerOf(auth),
      );
      return ok(recordingDto(recording));
    },
  }),
];
