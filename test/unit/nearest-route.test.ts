// The typo hint of a 404 (docs/limits-and-decisions.md, "Typo hints"): the nearest route template
// at most 3 edits away, and fewer than a third of its length; a {param} matches any one segment.
import { describe, expect, it } from 'vitest';
import { nearestTemplate } from '../../src/http/route-table.js';

const TEMPLATES = [
  '/v2/meetings',
  '/v2/meetings/{id}',
  '/v2/meetings/{meeting_id}/participants',
  '/v2/recordings',
  '/media/recordings/{recording_id}/{file}.mp4',
];

describe('nearestTemplate', () => {
  it.each([
    ['/v2/meeting', '/v2/meetings'],
    ['/v2/mxetings', '/v2/meetings'],
    ['/v2/mxxtings', '/v2/meetings'],
    ['/v2/mxxxings', '/v2/meetings'],
    ['/V2/MEETING/', '/v2/meetings'],
    ['/v2/meetngs/any-id', '/v2/meetings/{id}'],
    ['/v2/meetings/x/participant', '/v2/meetings/{meeting_id}/participants'],
    ['/media/recordings/r/a.mp3', '/media/recordings/{recording_id}/{file}.mp4'],
    // A segment left out or added costs its characters and its slash; a {param}'s counts as one character.
    ['/meetings', '/v2/meetings'],
    ['/x/v2/meetings', '/v2/meetings'],
    ['/v2/meetings/participants', '/v2/meetings/{meeting_id}/participants'],
    // An empty segment costs its slash: one edit each.
    ['/v2//meetings', '/v2/meetings'],
    ['/v2//meetings//', '/v2/meetings'],
    // The trailing slash is free, even at the most edits allowed.
    ['/v2/mxxxings/', '/v2/meetings'],
    // `{file}.mp4` with nothing (or less than its fixed part) where the parameter goes: a parameter costs one edit at least.
    ['/media/recordings/r/.mp4', '/media/recordings/{recording_id}/{file}.mp4'],
    ['/media/recordings/r/mp4', '/media/recordings/{recording_id}/{file}.mp4'],
  ])('%s → %s', (path, expected) => {
    expect(nearestTemplate(TEMPLATES, path)).toBe(expected);
  });

  it.each([
    ['four edits', '/v2/xxxxings'],
    ['nothing alike', '/v2/nothing-here'],
    ['two segments too many', '/v2/meetings/a/b/c/d'],
    ['a very long segment', `/v2/${'a'.repeat(5_000)}`],
    ['very many segments', '/v2'.repeat(2_000)],
  ])('%s: no hint', (_what, path) => {
    expect(nearestTemplate(TEMPLATES, path)).toBeUndefined();
  });

  it('gives no hint for a path that is the template itself: no edit is no typo', () => {
    expect(nearestTemplate(['/v2/meetings'], '/v2/meetings')).toBeUndefined();
    expect(nearestTemplate(['/v2/meetings'], '/V2/Meetings/')).toBeUndefined();
    // The next nearest one is still a hint.
    expect(nearestTemplate(TEMPLATES, '/v2/meetings')).toBe('/v2/meetings/{id}');
  });

  it('gives no hint for a short route, where one edit is a third of it', () => {
    // Lengths count the template's characters, slashes included: 3 and 4.
    expect(nearestTemplate(['/ab'], '/ax')).toBeUndefined();
    expect(nearestTemplate(['/abc'], '/abx')).toBe('/abc');
    // The trailing slash is no edit here either.
    expect(nearestTemplate(['/abc'], '/abx/')).toBe('/abc');
  });

  it('prefers the nearer of two, and the first of two as near', () => {
    expect(nearestTemplate(['/v2/recordings', '/v2/recording-x'], '/v2/recording')).toBe('/v2/recordings');
    expect(nearestTemplate(['/v2/aaaa1', '/v2/aaaa2'], '/v2/aaaa')).toBe('/v2/aaaa1');
  });
});
