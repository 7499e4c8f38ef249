import type { GuardedFetch } from '@docsvc/core/sdk'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { codes, distance, pixels, RED, render, solidPng, WHITE } from './canvas-test-support.ts'

const BLUE = { r: 0, g: 0, b: 255, a: 255 }

function imageScene(layer: Record<string, unknown>) {
  return {
    width: 200,
    height: 100,
    background: '#ffffff',
    layers: [{ type: 'image', name: 'photo', x: 50, y: 0, width: 100, height: 100, ...layer }],
  }
}

/** A 200x100 PNG: left half red, right half blue. */
async function halves(): Promise<Buffer> {
  const blue = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#0000ff' } })
    .png()
    .toBuffer()
  return sharp({ create: { width: 200, height: 100, channels: 3, background: '#ff0000' } })
    .composite([{ input: blue, left: 100, top: 0 }])
    .png()
    .toBuffer()
}

function dataUri(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`
}

describe('image layers', () => {
  it('draws a data: URI image in its box', async () => {
    const { file, warnings } = await render(imageScene({ src: await solidPng(10, 10, '#ff0000') }))
    const img = await pixels(file.bytes)
    expect(img.at(100, 50)).toEqual(RED)
    expect(img.at(51, 1)).toEqual(RED)
    expect(img.at(20, 50)).toEqual(WHITE)
    expect(img.at(170, 50)).toEqual(WHITE)
    expect(warnings).toEqual([])
  })

  it('fits cover (crops the middle), contain (letterbox) and fill (stretch)', async () => {
    const src = dataUri(await halves())
    const cover = await pixels((await render(imageScene({ src, fit: 'cover' }))).file.bytes)
    // the middle 100x100 of a red|blue 200x100 picture: red left quarter... blue right
    expect(cover.at(55, 50)).toEqual(RED)
    expect(cover.at(145, 50)).toEqual(BLUE)
    expect(cover.at(100, 2)).not.toEqual(WHITE)

    const contain = await pixels((await render(imageScene({ src, fit: 'contain' }))).file.bytes)
    // 100x50 picture centred in the 100x100 box: background above and below
    expect(contain.at(100, 10)).toEqual(WHITE)
    expect(contain.at(60, 50)).toEqual(RED)
    expect(contain.at(140, 50)).toEqual(BLUE)

    const fill = await pixels((await render(imageScene({ src, fit: 'fill' }))).file.bytes)
    expect(fill.at(60, 5)).toEqual(RED)
    expect(fill.at(140, 95)).toEqual(BLUE)
  })

  it('rounds corners with radius', async () => {
    const img = await pixels(
      (await render(imageScene({ src: await solidPng(4, 4, '#ff0000'), radius: 50 }))).file.bytes,
    )
    expect(img.at(100, 50)).toEqual(RED)
    expect(img.at(52, 2)).toEqual(WHITE)
  })

  it('fetches http(s) sources through the guarded fetch', async () => {
    const asked: { url: string; maxBytes?: number | undefined }[] = []
    const png = Buffer.from((await solidPng(8, 8, '#0000ff')).split(',')[1]!, 'base64')
    const fetch: GuardedFetch = async (url, options) => {
      asked.push({ url, maxBytes: options?.maxBytes })
      return { status: 200, headers: { 'content-type': 'image/png' }, body: png, url }
    }
    const { file, warnings } = await render(
      imageScene({ src: 'https://cdn.example.com/p.png' }),
      {},
      { fetch },
    )
    expect((await pixels(file.bytes)).at(100, 50)).toEqual(BLUE)
    expect(asked).toEqual([{ url: 'https://cdn.example.com/p.png', maxBytes: 20 * 1024 * 1024 }])
    expect(warnings).toEqual([])
  })

  it('takes the source from data (photo.src)', async () => {
    const { file } = await render(imageScene({}), { 'photo.src': await solidPng(2, 2, '#0000ff') })
    expect((await pixels(file.bytes)).at(100, 50)).toEqual(BLUE)
  })

  it('leaves out an image that cannot be loaded or decoded, with asset_failed', async () => {
    const refused: GuardedFetch = async () => {
      throw new Error('URL not allowed: private address')
    }
    const notFound: GuardedFetch = async (url) => ({ status: 404, headers: {}, body: Buffer.from('no'), url })
    const cases = [
      {
        src: 'https://10.0.0.1/a.png',
        fetch: refused,
        why: 'could not be loaded (URL not allowed: private address)',
      },
      { src: 'https://example.com/a.png', fetch: notFound, why: 'could not be loaded (HTTP 404)' },
      { src: 'file:///etc/passwd', why: 'could not be loaded (src must be a data: URI or an http(s) URL)' },
      { src: 'data:image/png;base64,bm90IGFuIGltYWdl', why: 'could not be decoded' },
      {
        src: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')}`,
        why: 'is svg, not PNG, JPEG, WebP, GIF or AVIF',
      },
    ]
    for (const { src, fetch, why } of cases) {
      const { file, warnings } = await render(imageScene({ src }), {}, fetch ? { fetch } : {})
      expect(codes(warnings)).toEqual(['asset_failed'])
      expect(warnings[0]!.message).toContain(`Layer photo: image `)
      expect(warnings[0]!.message).toContain(why)
      expect((await pixels(file.bytes)).inkIn({ x: 0, y: 0, width: 200, height: 100 }, WHITE)).toBe(0)
    }
  })

  it('loads at most 50 MB of image sources per render', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024)
    const fetch: GuardedFetch = async (url) => ({ status: 200, headers: {}, body: big, url })
    const layers = ['a', 'b', 'c'].map((name) => ({
      type: 'image',
      name,
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      src: `https://example.com/${name}.png`,
    }))
    const { warnings } = await render({ width: 20, height: 20, layers }, {}, { fetch })
    expect(codes(warnings)).toEqual(['asset_failed', 'asset_failed', 'asset_failed'])
    expect(warnings.filter((w) => w.message.includes('went over the 50 MB of image sources'))).toHaveLength(1)
    expect(warnings.filter((w) => w.message.includes('could not be decoded'))).toHaveLength(2)
  })

  it('scales the picture with the output, not the canvas', async () => {
    const src = dataUri(await halves())
    const { file } = await render(imageScene({ src, fit: 'fill' }), {}, { image: { device_scale_factor: 2 } })
    const img = await pixels(file.bytes)
    expect(img.width).toBe(400)
    expect(distance(img.at(198, 100), RED)).toBeLessThan(60)
    expect(distance(img.at(202, 100), BLUE)).toBeLessThan(60)
  })
})
