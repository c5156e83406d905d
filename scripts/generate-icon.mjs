// Writes resources/icon.png: a 512x512 RGBA PNG drawn from signed distances, so it needs no
// image library and no downloads. Run `node scripts/generate-icon.mjs` after changing the design.
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const SIZE = 512
const SAMPLES = 4 // per axis: 16 samples per pixel smooth the edges

const tile = { inset: 32, radius: 104, top: [38, 44, 57], bottom: [19, 22, 29] }
const lead = { x: 256, y: 186, radius: 50, color: [122, 162, 247] }
const members = [
  { x: 150, y: 338, radius: 40, color: [95, 212, 160] },
  { x: 362, y: 338, radius: 40, color: [95, 212, 160] },
]
const link = { width: 14, color: [74, 86, 112] }
/** The gap drawn in the tile's color around each node, so links stop short of it. */
const halo = 12

function roundedSquareDistance(x, y) {
  const half = (SIZE - 2 * tile.inset) / 2 - tile.radius
  const dx = Math.max(Math.abs(x - SIZE / 2) - half, 0)
  const dy = Math.max(Math.abs(y - SIZE / 2) - half, 0)
  return Math.hypot(dx, dy) - tile.radius
}

function segmentDistance(x, y, a, b) {
  const abx = b.x - a.x
  const aby = b.y - a.y
  const t = Math.max(0, Math.min(1, ((x - a.x) * abx + (y - a.y) * aby) / (abx * abx + aby * aby)))
  return Math.hypot(x - (a.x + t * abx), y - (a.y + t * aby))
}

function tileColor(y) {
  const t = (y - tile.inset) / (SIZE - 2 * tile.inset)
  return tile.top.map((channel, index) => channel + (tile.bottom[index] - channel) * t)
}

/** The color at one sample point, or undefined outside the tile. */
function sample(x, y) {
  if (roundedSquareDistance(x, y) > 0) return undefined
  const nodes = [lead, ...members]
  for (const node of nodes) {
    const distance = Math.hypot(x - node.x, y - node.y)
    if (distance <= node.radius) return node.color
    if (distance <= node.radius + halo) return tileColor(y)
  }
  for (const member of members) {
    if (segmentDistance(x, y, lead, member) <= link.width / 2) return link.color
  }
  return tileColor(y)
}

function render() {
  const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1))
  for (let py = 0; py < SIZE; py++) {
    const rowStart = py * (SIZE * 4 + 1)
    rows[rowStart] = 0 // filter: none
    for (let px = 0; px < SIZE; px++) {
      let red = 0
      let green = 0
      let blue = 0
      let covered = 0
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const color = sample(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES)
          if (color === undefined) continue
          red += color[0]
          green += color[1]
          blue += color[2]
          covered++
        }
      }
      const offset = rowStart + 1 + px * 4
      if (covered === 0) continue
      rows[offset] = Math.round(red / covered)
      rows[offset + 1] = Math.round(green / covered)
      rows[offset + 2] = Math.round(blue / covered)
      rows[offset + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES))
    }
  }
  return rows
}

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1
  return value >>> 0
})

function crc32(bytes) {
  let crc = 0xffffffff
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

const header = Buffer.alloc(13)
header.writeUInt32BE(SIZE, 0)
header.writeUInt32BE(SIZE, 4)
header[8] = 8 // bit depth
header[9] = 6 // color type: RGBA
// compression, filter and interlace methods stay 0

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(render(), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
])
writeFileSync(new URL('../resources/icon.png', import.meta.url), png)
console.log(`wrote resources/icon.png (${png.length} bytes)`)
