#!/usr/bin/env python3
"""Writes fixtures/media/glyphs.bin: the letters the recorder draws names with.

A recording shows each participant's name on their tile (and their initials where the camera is
off), in the media plane, where there is no font engine. This script renders, once, at
development time, the glyphs of DejaVu Sans at one size into a small atlas: per glyph its code
point, advance, offset from the pen, and an 8-bit coverage bitmap. The recorder scales them to
the size it needs. Characters outside the atlas are drawn as U+FFFD.

Needs Debian's python3-pil and fonts-dejavu-core:  sudo apt-get install -y python3-pil fonts-dejavu-core
Usage: /usr/bin/python3 scripts/make-glyphs.py   (writes into the repository; output is deterministic)

Format (then zlib-deflated as a whole), all integers little-endian:
  "GLYF" u16 version=1, u16 pixel size, u16 ascent, u16 descent, u32 glyph count
  per glyph: u32 code point, u16 advance (1/64 px), i16 x offset, i16 y offset (from the line's
             top), u16 width, u16 height, u32 offset of its bitmap in the bitmap block
  the bitmap block: each glyph's width*height coverage bytes, row by row
"""
import os
import struct
import zlib

from PIL import ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
SIZE = 40
RANGES = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x024F),  # Latin-1 Supplement, Latin Extended-A and -B
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x04FF),  # Cyrillic
    (0x2010, 0x2027),  # dashes, quotes, bullets, ellipsis
    (0x20AC, 0x20AC),  # euro sign
    (0xFFFD, 0xFFFD),  # the replacement character, drawn for anything else
]

font = ImageFont.truetype(FONT, SIZE)
ascent, descent = font.getmetrics()
entries = []
bitmaps = bytearray()
for lo, hi in RANGES:
    for cp in range(lo, hi + 1):
        ch = chr(cp)
        if not ch.isprintable() and ch != ' ':
            continue
        advance = round(font.getlength(ch) * 64)
        # The glyph's coverage and where it sits from the pen (left, top of the ascent).
        mask, (x0, y0) = font.getmask2(ch, mode='L')
        w, h = mask.size
        data = bytes(mask) if w > 0 and h > 0 else b''
        if len(data) != w * h:
            raise SystemExit(f'U+{cp:04X}: a {w}x{h} mask of {len(data)} bytes')
        entries.append((cp, advance, x0, y0, w, h, len(bitmaps)))
        bitmaps += data

out = bytearray(b'GLYF')
out += struct.pack('<HHHHI', 1, SIZE, ascent, descent, len(entries))
for e in entries:
    out += struct.pack('<IHhhHHI', *e)
out += bitmaps
path = os.path.join(ROOT, 'fixtures', 'media', 'glyphs.bin')
with open(path, 'wb') as f:
    f.write(zlib.compress(bytes(out), 9))
print(f'wrote {path}: {len(entries)} glyphs at {SIZE} px, {len(out)} bytes, {os.path.getsize(path)} deflated')
