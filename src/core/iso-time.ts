// What counts as a point in time wherever one comes in: the control API (PUT /_emulator/clock),
// --start-time and the v2 list filters (start_time, end_time) accept exactly the same strings.
import { z } from 'zod';

/**
 * An ISO 8601 date-time with seconds and a zone (`Z` or `±hh:mm`). A zone is required: without
 * one Date.parse reads local time, and the same value would mean different instants on different
 * machines. Impossible dates (02-30) are refused rather than rolled over into the next month.
 */
export const isoInstant = z.iso.datetime({ offset: true });
