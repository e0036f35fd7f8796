import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { clockView, toIso } from '../../core/clock.js';
import { isoInstant } from '../../core/iso-time.js';
import { errors } from '../../core/errors.js';
import type { Deps } from '../../container.js';
import { route } from '../route.js';

export const clockSchema = lazy(() => z.object({ now: z.string().meta({ format: 'date-time' }), mode: z.enum(['real', 'manual']) }));
const advanceResultSchema = lazy(() => clockSchema().extend({ jobs_run: z.number().int() }));

const MAX_ADVANCE_MS = 10 * 365 * 24 * 60 * 60 * 1000;

function clockDto(deps: Deps) {
  return clockView(deps.clock);
}

export const clockRoutes = [
  route({
    method: 'get',
    path: '/_emulator/clock',
    api: 'control',
    auth: 'none',
    tag: 'Control: clock',
    summary: 'The emulated time and the clock mode',
    responses: { 200: { description: 'The clock', schema: () => clockSchema() } },
    handler: ({ deps }) => ({ status: 200, body: clockDto(deps) }),
  }),
  route({
    method: 'post',
    path: '/_emulator/clock/advance',
    api: 'control',
    auth: 'none',
    tag: 'Control: clock',
    summary: 'Move the clock forward by ms, running every job that falls due in time order',
    description:
      'Answers once every recording whose upload came due is UPLOADED or ERRORED (its files complete and delivered), so a test finds it so as soon as the answer arrives.',
    body: () => z.object({ ms: z.number().int().min(0).max(MAX_ADVANCE_MS) }),
    responses: { 200: { description: 'The new time and how many jobs ran', schema: () => advanceResultSchema() } },
    handler: async ({ deps, body }) => {
      const jobsRun = deps.scheduler.advanceTo(deps.clock.now() + body.ms);
      await deps.services.recordings.delivery.idle();
      return { status: 200, body: { ...clockDto(deps), jobs_run: jobsRun } };
    },
  }),
  route({
    method: 'put',
    path: '/_emulator/clock',
    api: 'control',
    auth: 'none',
    tag: 'Control: clock',
    summary: 'Set the clock to a later time (forward only), running every job that falls due',
    description: 'Answers once every recording whose upload came due is UPLOADED or ERRORED, as an advance does.',
    body: () => z.object({ now: isoInstant }),
    responses: { 200: { description: 'The new time and how many jobs ran', schema: () => advanceResultSchema() } },
    handler: async ({ deps, body }) => {
      const target = Date.parse(body.now);
      if (target < deps.clock.now()) throw errors.validation(`"now" must not be before the current time ${toIso(deps.clock.now())}`);
      const jobsRun = deps.scheduler.advanceTo(target);
      await deps.services.recordings.delivery.idle();
      return { status: 200, body: { ...clockDto(deps), jobs_run: jobsRun } };
    },
  }),
];
