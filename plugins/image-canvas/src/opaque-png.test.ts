import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { opaquePng } from './opaque-png.ts'

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
})
