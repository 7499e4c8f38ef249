import { deflateSync, inflateSync } from 'node:zlib'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { adler32Combine, opaquePng } from './opaque-png.ts'

/** Opaque RGBA with every byte value and sharp steps between rows and columns. */
function opaqueRaster(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    pixels[i * 4] = (i * 37) & 255
    pixels[i * 4 + 1] = (i * 101 + (i % width)) & 255
    pixels[i * 4 + 2] = 255 - ((i * 13) & 255)
    pixels[i * 4 + 3] = 255
  }
  return pixels
}

function rgb(rgba: Buffer): Buffer {
  return Buffer.from(rgba.filter((_, i) => i % 4 !== 3))
}

describe('opaquePng', () => {
  it.each([
    [37, 19],
    [1, 5],
    [5, 1],
    // fewer rows than bands, and bands of unequal height
    [64, 3],
    [300, 201],
  ])('encodes a %ix%i raster as an RGB PNG of exactly its pixels', async (width, height) => {
    const raster = opaqueRaster(width, height)
    const expected = rgb(raster)
    const png = await opaquePng(raster, width, height)
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
    expect(info).toMatchObject({ width, height, channels: 3 })
    expect(data.equals(expected)).toBe(true)
  })

  it('reads pixels that do not start on a 4-byte boundary', async () => {
    const raster = opaqueRaster(9, 7)
    const shifted = Buffer.alloc(raster.length + 1).subarray(1)
    raster.copy(shifted)
    const { data } = await sharp(await opaquePng(shifted, 9, 7))
      .raw()
      .toBuffer({ resolveWithObject: true })
    expect(data.equals(rgb(raster))).toBe(true)
  })

  it('writes one zlib stream whose Adler-32 holds, across the bands deflated side by side', async () => {
    const [width, height] = [1200, 630]
    const raster = opaqueRaster(width, height)
    const png = await opaquePng(raster, width, height)
    // IHDR is 25 bytes after the signature; IDAT follows: length, type, data
    const length = png.readUInt32BE(33)
    expect(png.toString('latin1', 37, 41)).toBe('IDAT')
    // Node's inflate checks the stream's Adler-32 and that it ends where it says
    const rows = inflateSync(png.subarray(41, 41 + length))
    expect(rows.length).toBe(height * (width * 3 + 1))
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
    expect(data.equals(rgb(opaqueRaster(width, height)))).toBe(true)
  })
})

describe('adler32Combine', () => {
  const adler32 = (bytes: Buffer) => deflateSync(bytes).readUInt32BE(deflateSync(bytes).length - 4)
  it.each([
    [0, 10],
    [10, 0],
    [3, 65_521],
    [100_000, 250_000],
  ])('gives the Adler-32 of %i bytes followed by %i bytes', (first, second) => {
    const a = Buffer.from(Array.from({ length: first }, (_, i) => (i * 7 + 3) & 255))
    const b = Buffer.from(Array.from({ length: second }, (_, i) => (i * 31 + 11) & 255))
    expect(adler32Combine(adler32(a), adler32(b), b.length)).toBe(adler32(Buffer.concat([a, b])))
  })
})
