#!/usr/bin/env bash
# Regenerates the tiny media fixtures served by the emulator as recording
# downloads and livestream HLS playback:
#   fixtures/media/recording.mp4        H.264 (baseline) + AAC-LC, faststart MP4
#   fixtures/media/recording-audio.m4a  AAC-LC only, faststart M4A
#   fixtures/media/hls/segment{0,1,2}.ts + index.m3u8 + segments.json
#
# Usage: scripts/make-media.sh   (run from anywhere; writes into the repo)
# Output is deterministic for a given ffmpeg/x264 build (bitexact flags,
# single thread, no metadata, x264 SEI version string stripped).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/fixtures/media"
HLS="$OUT/hls"

for tool in ffmpeg ffprobe; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: $tool not found." >&2
    echo "Install it, e.g. on Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y ffmpeg" >&2
    echo "(fixtures were made with Debian 12's ffmpeg 5.1.x; macOS: brew install ffmpeg)" >&2
    exit 1
  fi
done
if ! ffmpeg -hide_banner -encoders 2>/dev/null | grep -c ' libx264 ' >/dev/null; then
  echo "error: this ffmpeg has no libx264 encoder (Debian's ffmpeg package includes it)." >&2
  exit 1
fi

W=160; H=90; FPS=10; DUR=5          # recording: 5 s
SEG=2; NSEG=3                       # HLS: 3 segments x 2 s
GOP=$((FPS * SEG))                  # one keyframe per HLS segment
TONE=440; AR=22050

# Shared ffmpeg options: global (before inputs) and output (after inputs).
GLOBAL=(-hide_banner -loglevel error -nostdin -y)
OUTOPT=(-threads 1 -fflags +bitexact -map_metadata -1 -map_chapters -1)
VIDEO=(-c:v libx264 -profile:v baseline -level:v 3.0 -pix_fmt yuv420p
       -preset medium -tune stillimage -x264-params "threads=1:sliced-threads=0"
       -b:v 24k -maxrate 40k -bufsize 80k
       -g "$GOP" -keyint_min "$GOP" -sc_threshold 0
       -flags:v +bitexact -bsf:v filter_units=remove_types=6)
AUDIO=(-c:a aac -profile:a aac_low -b:a 16k -ac 1 -ar "$AR" -flags:a +bitexact)

vsrc() { echo "testsrc2=size=${W}x${H}:rate=${FPS}:duration=$1"; }
asrc() { echo "sine=frequency=${TONE}:sample_rate=${AR}:duration=$1"; }

rm -rf "$HLS"
mkdir -p "$HLS"
rm -f "$OUT/recording.mp4" "$OUT/recording-audio.m4a"

# 1. recording.mp4 (video + audio)
ffmpeg "${GLOBAL[@]}" \
  -f lavfi -i "$(vsrc "$DUR")" -f lavfi -i "$(asrc "$DUR")" \
  -map 0:v -map 1:a "${OUTOPT[@]}" "${VIDEO[@]}" "${AUDIO[@]}" \
  -movflags +faststart -t "$DUR" "$OUT/recording.mp4"

# 2. recording-audio.m4a (audio only)
ffmpeg "${GLOBAL[@]}" \
  -f lavfi -i "$(asrc "$DUR")" \
  -map 0:a "${OUTOPT[@]}" "${AUDIO[@]}" \
  -movflags +faststart -t "$DUR" -f ipod "$OUT/recording-audio.m4a"

# 3. HLS MPEG-TS segments, each starting with an IDR frame.
HLS_DUR=$((SEG * NSEG))
ffmpeg "${GLOBAL[@]}" \
  -f lavfi -i "$(vsrc "$HLS_DUR")" -f lavfi -i "$(asrc "$HLS_DUR")" \
  -map 0:v -map 1:a "${OUTOPT[@]}" "${VIDEO[@]}" "${AUDIO[@]}" \
  -force_key_frames "expr:gte(t,n_forced*${SEG})" \
  -t "$HLS_DUR" \
  -f hls -hls_time "$SEG" -hls_list_size 0 -hls_playlist_type vod \
  -hls_flags independent_segments -hls_segment_type mpegts \
  -hls_segment_filename "$HLS/segment%d.ts" \
  "$HLS/index.m3u8"

# 4. segments.json: per-segment duration from the playlist's EXTINF values
#    (these are what HLS clients use), with ffprobe as a sanity check.
n=$(ls "$HLS"/segment*.ts | wc -l)
if [ "$n" -ne "$NSEG" ]; then
  echo "error: expected $NSEG segments, got $n" >&2; exit 1
fi
{
  echo "["
  i=0
  grep '^#EXTINF:' "$HLS/index.m3u8" | sed -e 's/^#EXTINF://' -e 's/,.*$//' | while read -r d; do
    sep=","; [ "$i" -eq $((NSEG - 1)) ] && sep=""
    echo "  {\"file\":\"segment${i}.ts\",\"duration\":${d}}${sep}"
    i=$((i + 1))
  done
  echo "]"
} > "$HLS/segments.json"

echo "wrote:"
du -ab "$OUT"
