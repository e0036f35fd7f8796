// A livestream's packaging stops before its folder goes: the media plane answers a stop once the
// packager's ffmpeg has exited, so the emulator removes the folder when nothing can write a last
// segment into it any more (a folder removed while its ffmpeg still ran could get a file back). A
// media test: real ffmpeg, the plane in this process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalMediaEngine } from '../../../src/realtime/media/plane/local-engine.js';
import type { LivestreamSpec } from '../../../src/realtime/media/media-types.js';
import { withFfmpeg } from '../../helpers/media-probe.js';
import { ffmpegsWritingTo, processExists } from '../../helpers/proc-sockets.js';

let engine: LocalMediaEngine | undefined;
let dir: string | undefined;

afterEach(async () => {
  await engine?.close();
  engine = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe.runIf(withFfmpeg)("a livestream's packager", () => {
  it("is gone when the plane answers the livestream's stop", async () => {
    engine = new LocalMediaEngine();
    dir = mkdtempSync(path.join(tmpdir(), 'packager-stop-'));
    const spec: LivestreamSpec = { id: 'ls.0', ffmpeg: 'ffmpeg', dir, playlist: 'run0.m3u8', firstSegment: 0, segmentSeconds: 1, source: { kind: 'encoder' } };
    await engine.startLivestream(spec, null);
    const packagers = ffmpegsWritingTo(dir);
    expect(packagers).toHaveLength(1);

    await engine.stopLivestream(spec.id);
    // Exited and reaped: not even a dead process is left of it.
    expect(packagers.filter(processExists)).toEqual([]);
    // A stop of a livestream no longer packaged answers at once.
    await engine.stopLivestream(spec.id);
  });
});
