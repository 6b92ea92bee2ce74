#!/usr/bin/env python3
"""Counts the pixels of a PNG near given colours, and the box they lie in.

Usage: png_colour_box.py FILE.png RRGGBB [RRGGBB ...]
Prints one line: width height count x0 y0 x1 y1 (the box is 0 0 -1 -1 when no pixel matched).
A pixel matches when each channel is within 24 of one of the colours (antialiased edges
are not counted). Reads 8-bit RGB or RGBA PNGs, not interlaced (what Chromium's screenshots
are), with the standard library only (zlib).
"""
import struct
import sys
import zlib


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    at, idat, head = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: depth {depth}, colour type {colour}, interlace {interlace}: not read here")
    bpp = 3 if colour == 2 else 4
    raw, stride, previous = zlib.decompress(idat), width * bpp, bytearray(width * bpp)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        if kind == 2:
            row = up(row, previous)
        elif kind in (1, 3, 4):
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b = previous[i]
                if kind == 1:
                    row[i] = (row[i] + a) & 255
                elif kind == 3:
                    row[i] = (row[i] + (a + b) // 2) & 255
                else:
                    c = previous[i - bpp] if i >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        yield width, height, bpp, row
        previous = row


def up(row, previous):
    """Each byte plus the byte above, modulo 256: added as 16-bit lanes of two big integers."""
    lanes = []
    for part in (row, previous):
        wide = bytearray(2 * len(part))
        wide[1::2] = part
        lanes.append(int.from_bytes(wide, "big"))
    return bytearray((lanes[0] + lanes[1]).to_bytes(2 * len(row), "big")[1::2])


def main():
    path, colours = sys.argv[1], [tuple(int(h[i:i + 2], 16) for i in (0, 2, 4)) for h in sys.argv[2:]]
    near = lambda v: range(max(0, v - 24), min(255, v + 24) + 1)
    match = {(r, g, b) for c in colours for r in near(c[0]) for g in near(c[1]) for b in near(c[2])}
    count, box, size = 0, [1 << 30, 1 << 30, -1, -1], (0, 0)
    for y, (width, height, bpp, row) in enumerate(rows(path)):
        size = (width, height)
        pixels = list(zip(row[0::bpp], row[1::bpp], row[2::bpp]))
        hit = match.intersection(pixels)
        if not hit:
            continue
        xs = [x for x, pixel in enumerate(pixels) if pixel in hit]
        count += len(xs)
        box = [min(box[0], xs[0]), min(box[1], y), max(box[2], xs[-1]), max(box[3], y)]
    if count == 0:
        box = [0, 0, -1, -1]
    print(size[0], size[1], count, *box)


main()
