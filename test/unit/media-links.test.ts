// The sample media's bytes are read once and kept; a read that failed is tried again.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MediaLinks, mediaFilesIn } from '../../src/domain/media/media-links.js';

describe('MediaLinks.read', () => {
  it('keeps the bytes of a file after the first read', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'media-'));
    const file = path.join(dir, 'recording.mp4');
    writeFileSync(file, 'first');
    const media = new MediaLinks('http://emulator.test', 'secret', mediaFilesIn(dir));
    const first = await media.read(file);
    writeFileSync(file, 'changed');
    expect((await media.read(file)).toString()).toBe('first');
    expect(await media.read(file)).toBe(first);
  });

  it('tries a failed read again', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'media-'));
    const file = path.join(dir, 'late.mp4');
    const media = new MediaLinks('http://emulator.test', 'secret', mediaFilesIn(dir));
    await expect(media.read(file)).rejects.toThrow(/ENOENT/);
    writeFileSync(file, 'here now');
    expect((await media.read(file)).toString()).toBe('here now');
  });
});
