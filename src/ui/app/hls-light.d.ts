// hls.js's light build (no subtitles, alternate audio or DRM: the emulator's streams have none)
// has the same API as the full one, but ships no types of its own.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}

// The style sheet is imported for esbuild, which writes it out as main.css next to main.js.
declare module '*.css';
