// The files a recording makes, as production's guides describe them: by default one composite
// file, H.264 video and AAC audio in MP4; with `video_config.codec: VP8`, VP8 and Vorbis in WebM
// (the audio codec cannot be chosen then); the separate audio file in the audio config's codec (AAC
// in M4A, MP3), or Vorbis in Ogg beside a VP8 video. A track recording is one WebM file holding
// every track of the meeting as it was sent (VP8 or VP9 video, Opus audio), with no audio file of
// its own. Without a recorder every recording is the bundled sample, an MP4 and an M4A.
import type { Recording } from '../models.js';

/** What one file of a recording is: its extension (with the dot) and the Content-Type it is served with. */
export interface FileFormat {
  ext: string;
  contentType: string;
}

export const FORMATS = {
  mp4: { ext: '.mp4', contentType: 'video/mp4' },
  webm: { ext: '.webm', contentType: 'video/webm' },
  m4a: { ext: '.m4a', contentType: 'audio/mp4' },
  mp3: { ext: '.mp3', contentType: 'audio/mpeg' },
  ogg: { ext: '.ogg', contentType: 'audio/ogg' },
} as const satisfies Record<string, FileFormat>;

/** The formats of a recording's video (or composite) file and its separate audio file; null where it makes none. */
export function recordingFormats(
  r: Pick<Recording, 'kind' | 'video' | 'audio' | 'exportAudio'>,
  real: boolean,
): { video: FileFormat | null; audio: FileFormat | null } {
  if (!real) return { video: FORMATS.mp4, audio: r.exportAudio ? FORMATS.m4a : null };
  if (r.kind === 'track') return { video: FORMATS.webm, audio: null };
  const vp8 = r.video.codec === 'VP8';
  const audio = vp8 ? FORMATS.ogg : r.audio.codec === 'MP3' ? FORMATS.mp3 : FORMATS.m4a;
  const video = r.video.exportFile ? (vp8 ? FORMATS.webm : FORMATS.mp4) : null;
  // Without a video file the audio file is the recording, whether or not it was asked for separately.
  return { video, audio: r.exportAudio || !video ? audio : null };
}

/** The recording's output file name: prefix, meeting and start time, with the extension of its main file. */
export function outputFileName(prefix: string | undefined, meetingId: string, at: number, main: FileFormat): string {
  return `${prefix ? `${prefix}_` : ''}${meetingId}_${at}${main.ext}`;
}

/** The name of a recording's separate audio file: its output file name with the audio file's extension. */
export function audioFileName(outputName: string, audio: FileFormat): string {
  return `${outputName.replace(/\.[A-Za-z0-9]+$/, '')}${audio.ext}`;
}
