// POST /v2/recordings/track, as production documents it (StartTrackRecordingBody): a meeting and
// its layers, each mapping the meeting's tracks to outputs. Production supports the "default"
// layer only, and so does the emulator.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { storageConfigBody } from './recording-config.schemas.js';
import { startRecordingBody } from './schemas.js';

const TRACK_OUTPUT_TYPES = ['DYTE_BUCKET', 'STORAGE_CONFIG'] as const;

const trackOutput = lazy(() =>
  z.object({
    type: z.enum(TRACK_OUTPUT_TYPES).default('DYTE_BUCKET'),
    storage_config: storageConfigBody().nullable().optional(),
  }),
);

const trackLayer = lazy(() =>
  z
    .object({
      // The same rule as a recording's prefix: the file names it makes are the same kind.
      file_name_prefix: startRecordingBody().shape.file_name_prefix,
      outputs: z.array(trackOutput()).max(TRACK_OUTPUT_TYPES.length).optional(),
    })
    .superRefine((layer, ctx) => {
      const seen = new Set<string>();
      (layer.outputs ?? []).forEach((o, i) => {
        // Emulator decision: one output of each type, as a recording has one storage config.
        if (seen.has(o.type)) ctx.addIssue({ code: 'custom', path: ['outputs', i, 'type'], message: 'must not repeat an output type' });
        seen.add(o.type);
        if (o.type === 'STORAGE_CONFIG' && !o.storage_config)
          // Stryker disable next-line StringLiteral: issueMessage renders this issue from expected alone and never reads its message.
          ctx.addIssue({ code: 'invalid_type', expected: 'object', path: ['outputs', i, 'storage_config'], message: 'required' });
      });
    }),
);

/** Production types max_seconds as a string here (a number on POST /v2/recordings): both are read, with the same range. */
const maxSeconds = lazy(() =>
  z
    .union([
      z
        .string()
        .regex(/^\d{1,6}$/, 'must be a whole number of seconds')
        .transform(Number),
      z.number(),
    ])
    .pipe(startRecordingBody().shape.max_seconds.unwrap()),
);

export const startTrackRecordingBody = lazy(() =>
  z.object({
    meeting_id: z.uuid(),
    layers: z.object({ default: trackLayer() }).strict(),
    max_seconds: maxSeconds().optional(),
  }),
);
