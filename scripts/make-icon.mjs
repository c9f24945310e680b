#!/usr/bin/env node
// Draws the extension icon, images/icon.png (128×128 RGBA PNG), with a tiny PNG encoder (node:zlib), so no image
// tool is needed. The picture: a rounded blue square with three rising version bars (the upgrade window) and a
// check mark across them. Deterministic: the same bytes on every run.
//
//   node scripts/make-icon.mjs [out.png]      (default images/icon.png)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const SIZE = 128;
const SS = 4; // supersampling per axis, for anti-aliased edges

// Shapes in icon coordinates (0..128). Each returns true when the point is inside.
const roundedRect = (x0, y0, x1, y1, r) => (x, y) => {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const segment = (ax, ay, bx, by, w) => (x, y) => {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return (x - (ax + t * dx)) ** 2 + (y - (ay + t * dy)) ** 2 <= (w / 2) ** 2;
};

// Painted in order; later layers cover earlier ones. Colours are [r, g, b].
const layers = [
  { shape: roundedRect(4, 4, 124, 124, 22), color: [0x1d, 0x4e, 0x89] },
  { shape: roundedRect(22, 74, 42, 104, 4), color: [0x7f, 0xb3, 0xe8] },
  { shape: roundedRect(54, 56, 74, 104, 4), color: [0xa9, 0xcd, 0xf2] },
  { shape: roundedRect(86, 38, 106, 104, 4), color: [0xd6, 0xe8, 0xfa] },
  { shape: segment(30, 50, 50, 68, 13), color: [0x2e, 0xc2, 0x7e] },
  { shape: segment(50, 68, 98, 20, 13), color: [0x2e, 0xc2, 0x7e] },
];

function render() {
  const rgba = Buffer.alloc(SIZE * SIZE * 4);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const x = px + (sx + 0.5) / SS, y = py + (sy + 0.5) / SS;
          let c = null;
          for (const l of layers) if (l.shape(x, y)) c = l.color;
          if (c) { r += c[0]; g += c[1]; b += c[2]; a++; }
        }
      }
      const o = (py * SIZE + px) * 4;
      if (a) { rgba[o] = Math.round(r / a); rgba[o + 1] = Math.round(g / a); rgba[o + 2] = Math.round(b / a); }
      rgba[o + 3] = Math.round((255 * a) / (SS * SS));
    }
  }
  return rgba;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** Encodes RGBA pixels (width×height×4 bytes) as a PNG (colour type 6, 8 bits, no interlace). */
export function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0); ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const out = path.resolve(process.argv[2] ?? path.join(root, 'images', 'icon.png'));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const png = encodePng(SIZE, SIZE, render());
  fs.writeFileSync(out, png);
  process.stdout.write(`make-icon: ${path.relative(process.cwd(), out)} (${SIZE}×${SIZE}, ${png.length} bytes)\n`);
}
