#!/usr/bin/env bash
# Regenerates the tiny media fixtures served by the emulator as recording
# downloads and livestream HLS playback:
#   fixtures/media/recording.mp4        H.264 (baseline) + AAC-LC, faststart MP4
#   fixtures/media/recording-audio.m4a  AAC-LC only, faststart M4A
#   fixtures/media/hls/segment{0,1,2}.ts + index.m3u8 + segments.json
#   fixtures/media/clip/video.ivf       VP8 (libvpx) in IVF, for bots' RTP video
#   fixtures/media/clip/audio.ogg       Opus (libopus) in Ogg, for bots' RTP audio
#
# Usage: scripts/make-media.sh   (run from anywhere; writes into the repo)
# Output is deterministic for a given ffmpeg/x264/libvpx/libopus build
# (bitexact flags, single thread, no metadata, x264 SEI version string
# stripped, Ogg serial number 0 under +bitexact).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/fixtures/media"
HLS="$OUT/hls"
CLIP="$OUT/clip"

for tool in ffmpeg ffprobe; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: $tool not found." >&2
    echo "Install it, e.g. on Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y ffmpeg" >&2
    echo "(fixtures were made with Debian 12's ffmpeg 5.1.x; macOS: brew install ffmpeg)" >&2
    exit 1
  fi
done
for enc in libx264 libvpx libopus; do
  if ! ffmpeg -hide_banner -encoders 2>/dev/null | grep -c " $enc " >/dev/null; then
    echo "error: this ffmpeg has no $enc encoder (Debian's ffmpeg package includes it)." >&2
    exit 1
  fi
done

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

# Bots' clip (played in a loop as RTP, no encoder at run time): VP8 + Opus.
CW=320; CH=180; CFPS=15; CDUR=5     # 75 frames
CGOP=$CFPS                          # a keyframe every second (a viewer's PLI waits <= 1 s)
CAR=48000                           # Opus always runs at 48 kHz
# testsrc (not testsrc2) draws a running counter without a font; decimals=2 makes it change
# every frame (shown as e.g. "246" for 2.46 s). CBR (minrate = maxrate = b), no alt-ref
# (invisible) frames, no look-ahead, error-resilient: what a real-time WebRTC sender makes.
CVIDEO=(-c:v libvpx -pix_fmt yuv420p -deadline good -cpu-used 2
        -b:v 200k -minrate 200k -maxrate 200k -bufsize 400k
        -g "$CGOP" -keyint_min "$CGOP" -auto-alt-ref 0 -lag-in-frames 0 -error-resilient 1
        -flags:v +bitexact)
# 20 ms frames, mono (browsers decode mono Opus in the usual opus/48000/2 payload type).
CAUDIO=(-c:a libopus -b:a 32k -vbr on -application voip -frame_duration 20
        -ac 1 -ar "$CAR" -flags:a +bitexact)
# A 440 Hz tone in half-sine bursts: 0.6 s on, 0.4 s silent, every second, so a
# receiver's audio level (voice activity, "speaking") comes and goes.
CTONE="0.4*sin(2*PI*${TONE}*t)*lt(mod(t\,1)\,0.6)*sin(PI*mod(t\,1)/0.6)"

vsrc() { echo "testsrc2=size=${W}x${H}:rate=${FPS}:duration=$1"; }
asrc() { echo "sine=frequency=${TONE}:sample_rate=${AR}:duration=$1"; }

rm -rf "$HLS" "$CLIP"
mkdir -p "$HLS" "$CLIP"
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

# 5. clip/video.ivf: VP8 in IVF (header carries the 1/15 time base and the frame count).
ffmpeg "${GLOBAL[@]}" \
  -f lavfi -i "testsrc=size=${CW}x${CH}:rate=${CFPS}:duration=${CDUR}:decimals=2" \
  -map 0:v "${OUTOPT[@]}" "${CVIDEO[@]}" \
  -t "$CDUR" -f ivf "$CLIP/video.ivf"

# 6. clip/audio.ogg: Opus in Ogg (OpusHead, OpusTags, then one packet per 20 ms).
ffmpeg "${GLOBAL[@]}" \
  -f lavfi -i "aevalsrc=exprs='${CTONE}':sample_rate=${CAR}:channel_layout=mono:duration=${CDUR}" \
  -map 0:a "${OUTOPT[@]}" "${CAUDIO[@]}" \
  -t "$CDUR" -f ogg "$CLIP/audio.ogg"

n=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$CLIP/video.ivf")
if [ "$n" -ne $((CFPS * CDUR)) ]; then
  echo "error: expected $((CFPS * CDUR)) video frames in the clip, got $n" >&2; exit 1
fi

echo "wrote:"
du -ab "$OUT"
