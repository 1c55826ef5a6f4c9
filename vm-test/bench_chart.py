#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Draw make bench's chart without gnuplot: a PNG written with the
standard library only (zlib), for machines where gnuplot-nox cannot be
installed.  One row per latency figure (unit ns), one bar per transport,
the p50 in microseconds on a log scale, labelled; below, one row per
program of the scale-out figures (unit x): its speedup on two nodes, on
a linear scale.

Usage: bench_chart.py RESULTS.CSV OUT.PNG
"""
import csv
import math
import struct
import sys
import zlib

# A 5x7 bitmap font: each glyph is 7 rows of 5 bits, top row first.
FONT = {
    ' ': '00000 00000 00000 00000 00000 00000 00000',
    '0': '01110 10001 10011 10101 11001 10001 01110',
    '1': '00100 01100 00100 00100 00100 00100 01110',
    '2': '01110 10001 00001 00010 00100 01000 11111',
    '3': '11110 00001 00001 01110 00001 00001 11110',
    '4': '00010 00110 01010 10010 11111 00010 00010',
    '5': '11111 10000 11110 00001 00001 10001 01110',
    '6': '00110 01000 10000 11110 10001 10001 01110',
    '7': '11111 00001 00010 00100 01000 01000 01000',
    '8': '01110 10001 10001 01110 10001 10001 01110',
    '9': '01110 10001 10001 01111 00001 00010 01100',
    'a': '00000 00000 01110 00001 01111 10001 01111',
    'b': '10000 10000 10110 11001 10001 10001 11110',
    'c': '00000 00000 01110 10000 10000 10001 01110',
    'd': '00001 00001 01101 10011 10001 10001 01111',
    'e': '00000 00000 01110 10001 11111 10000 01110',
    'f': '00110 01001 01000 11100 01000 01000 01000',
    'g': '00000 01111 10001 10001 01111 00001 01110',
    'h': '10000 10000 10110 11001 10001 10001 10001',
    'i': '00100 00000 01100 00100 00100 00100 01110',
    'j': '00010 00000 00110 00010 00010 10010 01100',
    'k': '10000 10000 10010 10100 11000 10100 10010',
    'l': '01100 00100 00100 00100 00100 00100 01110',
    'm': '00000 00000 11010 10101 10101 10001 10001',
    'n': '00000 00000 10110 11001 10001 10001 10001',
    'o': '00000 00000 01110 10001 10001 10001 01110',
    'p': '00000 00000 11110 10001 11110 10000 10000',
    'q': '00000 00000 01101 10011 01111 00001 00001',
    'r': '00000 00000 10110 11001 10000 10000 10000',
    's': '00000 00000 01110 10000 01110 00001 11110',
    't': '01000 01000 11100 01000 01000 01001 00110',
    'u': '00000 00000 10001 10001 10001 10011 01101',
    'v': '00000 00000 10001 10001 10001 01010 00100',
    'w': '00000 00000 10001 10001 10101 10101 01010',
    'x': '00000 00000 10001 01010 00100 01010 10001',
    'y': '00000 00000 10001 10001 01111 00001 01110',
    'z': '00000 00000 11111 00010 00100 01000 11111',
    '_': '00000 00000 00000 00000 00000 00000 11111',
    '.': '00000 00000 00000 00000 00000 01100 01100',
    ',': '00000 00000 00000 00000 01100 00100 01000',
    ':': '00000 01100 01100 00000 01100 01100 00000',
    '/': '00001 00001 00010 00100 01000 10000 10000',
    '-': '00000 00000 00000 11111 00000 00000 00000',
    '(': '00010 00100 01000 01000 01000 00100 00010',
    ')': '01000 00100 00010 00010 00010 00100 01000',
    '=': '00000 00000 11111 00000 11111 00000 00000',
}
SCALE = 2
GLYPH_W = 6 * SCALE
COLOURS = [(52, 101, 164), (204, 0, 0), (78, 154, 6), (196, 160, 0)]


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(b'\xff' * (w * h * 3))

    def rect(self, x0, y0, x1, y1, rgb):
        for y in range(max(y0, 0), min(y1, self.h)):
            row = y * self.w * 3
            for x in range(max(x0, 0), min(x1, self.w)):
                self.px[row + 3 * x:row + 3 * x + 3] = bytes(rgb)

    def text(self, x, y, s, rgb=(0, 0, 0)):
        for ch in s.lower():
            rows = FONT.get(ch, FONT[' ']).split()
            for r, bits in enumerate(rows):
                for c, bit in enumerate(bits):
                    if bit == '1':
                        self.rect(x + c * SCALE, y + r * SCALE,
                                  x + (c + 1) * SCALE, y + (r + 1) * SCALE,
                                  rgb)
            x += GLYPH_W

    def png(self, path):
        raw = b''.join(b'\x00' + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3])
                       for y in range(self.h))

        def chunk(kind, data):
            body = kind + data
            return (struct.pack('>I', len(data)) + body +
                    struct.pack('>I', zlib.crc32(body) & 0xffffffff))
        with open(path, 'wb') as f:
            f.write(b'\x89PNG\r\n\x1a\n')
            f.write(chunk(b'IHDR', struct.pack('>IIBBBBB', self.w, self.h,
                                               8, 2, 0, 0, 0)))
            f.write(chunk(b'IDAT', zlib.compress(raw, 9)))
            f.write(chunk(b'IEND', b''))


def latency_rows(rows):
    """The latency figures (unit ns) of the transports: the cost-when-
    unused rows (unused-*) are a table of their own."""
    return [r for r in rows
            if r['unit'] == 'ns' and not r['transport'].startswith('unused-')]


def scale_rows(rows):
    """The scale-out speedups (unit x): one node's time / two nodes'."""
    return [r for r in rows
            if r['unit'] == 'x' and r['figure'].startswith('scale_')]


def order(rows):
    transports = sorted({r['transport'] for r in rows},
                        key=lambda t: (t != 'tcp', t))
    figures = []
    for r in rows:
        if r['figure'] not in figures:
            figures.append(r['figure'])
    return transports, figures


def panel_height(rows, bar_h, gap):
    transports, figures = order(rows)
    return 60 + len(figures) * (len(transports) * bar_h + gap) + 40 if rows else 0


def draw_latency(cv, rows, top, label_w, plot_w, bar_h, gap):
    transports, figures = order(rows)
    p50 = {(r['transport'], r['figure']): float(r['p50']) / 1000 for r in rows}
    lo = math.floor(math.log10(max(min(p50.values()), 1e-3)))
    hi = math.ceil(math.log10(max(p50.values()) * 1.01))
    bottom = top + panel_height(rows, bar_h, gap)
    cv.text(10, top + 10, 'popcorn: p50 latency, us (log scale), one boot per transport')
    x0, y = label_w, top + 40

    def xpos(v):
        return x0 + int((math.log10(v) - lo) / (hi - lo) * plot_w)
    for e in range(lo, hi + 1):     # decades
        x = x0 + int((e - lo) / (hi - lo) * plot_w)
        cv.rect(x, y, x + 1, bottom - 30, (200, 200, 200))
        cv.text(x - GLYPH_W, bottom - 24,
                str(10 ** e) if e >= 0 else '%g' % 10 ** e)
    for f in figures:
        cv.text(10, y + 4, f)
        for i, t in enumerate(transports):
            v = p50.get((t, f))
            if v:
                cv.rect(x0, y, max(xpos(v), x0 + 1), y + bar_h - 2,
                        COLOURS[i % len(COLOURS)])
                cv.text(max(xpos(v), x0 + 1) + 6, y, '%s %.1f' % (t, v))
            y += bar_h
        y += gap


def draw_scale(cv, rows, top, label_w, plot_w, bar_h, gap):
    """Speedups on a linear scale from 0, with lines at 1 (as fast as
    one node) and 2 (two nodes' worth)."""
    transports, figures = order(rows)
    sp = {(r['transport'], r['figure']): float(r['p50']) for r in rows}
    hi = max(2.5, max(sp.values()) * 1.05)
    bottom = top + panel_height(rows, bar_h, gap)
    cv.text(10, top + 10, 'scale-out: time on 1 node / time spread over 2 nodes (1 vcpu each)')
    x0, y = label_w, top + 40

    def xpos(v):
        return x0 + int(v / hi * plot_w)
    for v in (0, 0.5, 1, 1.5, 2):
        x = xpos(v)
        cv.rect(x, y, x + 1, bottom - 30,
                (120, 120, 120) if v in (1, 2) else (200, 200, 200))
        cv.text(x - GLYPH_W, bottom - 24, '%g' % v)
    for f in figures:
        cv.text(10, y + 4, f[len('scale_'):-len('_speedup')]
                if f.endswith('_speedup') else f)
        for i, t in enumerate(transports):
            v = sp.get((t, f))
            if v is not None:
                cv.rect(x0, y, max(xpos(v), x0 + 1), y + bar_h - 2,
                        COLOURS[i % len(COLOURS)])
                cv.text(max(xpos(v), x0 + 1) + 6, y, '%s %.2f' % (t, v))
            y += bar_h
        y += gap


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    lat, scale = latency_rows(rows), scale_rows(rows)
    if not lat and not scale:
        sys.exit('bench_chart: no latency or scale-out figures in ' + sys.argv[1])
    label_w = 28 * GLYPH_W
    plot_w, bar_h, gap = 700, 14, 10
    width = label_w + plot_w + 14 * GLYPH_W
    h_lat = panel_height(lat, bar_h, gap)
    cv = Canvas(width, h_lat + panel_height(scale, bar_h, gap))
    if lat:
        draw_latency(cv, lat, 0, label_w, plot_w, bar_h, gap)
    if scale:
        draw_scale(cv, scale, h_lat, label_w, plot_w, bar_h, gap)
    cv.png(sys.argv[2])


if __name__ == '__main__':
    main()
