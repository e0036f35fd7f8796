// Media players. A recording plays in a plain <video> once UPLOADED; a LIVE livestream plays
// through hls.js (Chromium has no native HLS), which is loaded only when a livestream is played,
// so the first load of the dashboard stays small.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export function RecordingPlayer({ src, label }: { src: string; label: string }) {
  return html`<video class="player" controls preload="metadata" src=${src} aria-label=${label} data-testid="recording-player"></video>`;
}

export function HlsPlayer({ src, label }: { src: string; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let destroyed = false;
    let detach = () => {};
    if (element.canPlayType('application/vnd.apple.mpegurl')) {
      element.src = src;
      return;
    }
    void import('hls.js/light').then(({ default: Hls }) => {
      if (destroyed) return;
      if (!Hls.isSupported()) {
        setProblem('This browser cannot play HLS (no Media Source Extensions).');
        return;
      }
      const hls = new Hls({ liveSyncDurationCount: 2 });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) setProblem(`The player stopped: ${data.details}`);
      });
      hls.loadSource(src);
      hls.attachMedia(element);
      detach = () => hls.destroy();
    });
    return () => {
      destroyed = true;
      detach();
    };
  }, [src]);
  return html`
    <div>
      <video ref=${video} class="player" controls muted autoplay playsinline aria-label=${label} data-testid="livestream-player"></video>
      ${problem && html`<p class="error">${problem}</p>`}
    </div>
  `;
}
