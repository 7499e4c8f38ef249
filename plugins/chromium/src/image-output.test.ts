import { ProblemError } from '@docsvc/core/sdk'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserPool } from './browser-pool.ts'
import { outputContext, testPool } from './chromium-test-support.ts'
import { HtmlOutput } from './html-output.ts'
import { ImageOutput } from './image-output.ts'

let pool: BrowserPool
let png: ImageOutput
let jpeg: ImageOutput
let webp: ImageOutput

beforeAll(async () => {
  pool = testPool([])
  await pool.start()
  png = new ImageOutput('png', pool)
  jpeg = new ImageOutput('jpeg', pool)
  webp = new ImageOutput('webp', pool)
})

afterAll(async () => {
  await pool.stop()
})

const tall = {
  kind: 'html' as const,
  html: `<body style="margin: 0; background: white">
    <div style="height: 2000px; width: 100%"><h1 style="margin: 0">Top</h1></div>
    <div id="badge" style="position: absolute; left: 40px; top: 100px; width: 300px; height: 150px; background: rgb(0, 0, 255)"></div>
  </body>`,
}
const plain = { kind: 'html' as const, html: '<body style="margin: 0"><p>nothing red here</p></body>' }

/** Pixels clearly more red than green: the TEST mark, never black text on white. */
async function reddishPixels(bytes: Buffer): Promise<number> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  let count = 0
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! - data[i + 1]! > 40) count++
  return count
}

describe('image outputs', () => {
  it('makes PNG, JPEG and WebP files of the viewport, sized by the device scale factor', async () => {
    const options = { width: 600, height: 400, device_scale_factor: 2 }
    const p = await png.render(tall, options, outputContext())
    const j = await jpeg.render(tall, options, outputContext())
    const w = await webp.render(tall, options, outputContext())
    expect(p.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(j.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))
    expect(w.bytes.subarray(0, 4).toString()).toBe('RIFF')
    expect(w.bytes.subarray(8, 12).toString()).toBe('WEBP')
    for (const file of [p, j, w]) {
      const meta = await sharp(file.bytes).metadata()
      expect([meta.width, meta.height]).toEqual([1200, 800])
      expect([file.width, file.height]).toEqual([1200, 800])
    }
    expect([p.contentType, j.contentType, w.contentType]).toEqual(['image/png', 'image/jpeg', 'image/webp'])
  })

  it('compresses a PNG well although Chromium captures it with its fast encoding', async () => {
    const gradient = {
      kind: 'html' as const,
      html: `<body style="margin: 0; width: 1200px; height: 630px;
        background: linear-gradient(135deg, #1e3a8a, #9333ea)"><h1 style="color: white">Card</h1></body>`,
    }
    const file = await png.render(gradient, { width: 1200, height: 630 }, outputContext())
    // Chromium's fast encoding of this page is ~680 KB, its default one ~260 KB
    expect(file.bytes.length).toBeLessThan(260 * 1024)
    const { data, info } = await sharp(file.bytes).raw().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height, info.channels]).toEqual([1200, 630, 3])
    // the gradient's ends: top left near #1e3a8a, bottom right near #9333ea
    const at = (x: number, y: number) => [...data.subarray((y * 1200 + x) * 3, (y * 1200 + x) * 3 + 3)]
    expect(at(0, 0).map((c, i) => Math.abs(c - [0x1e, 0x3a, 0x8a][i]!))).toSatisfy((d: number[]) =>
      d.every((v) => v <= 8),
    )
    expect(at(1199, 629).map((c, i) => Math.abs(c - [0x93, 0x33, 0xea][i]!))).toSatisfy((d: number[]) =>
      d.every((v) => v <= 8),
    )
  })

  it('captures the whole page with full_page and only the viewport without it', async () => {
    const viewport = await png.render(tall, { width: 800, height: 600 }, outputContext())
    const full = await png.render(tall, { width: 800, height: 600, full_page: true }, outputContext())
    expect([viewport.width, viewport.height]).toEqual([800, 600])
    expect([full.width, full.height]).toEqual([800, 2000])
  })

  it('clips to the element of a selector, and to a clip rectangle', async () => {
    const badge = await png.render(tall, { selector: '#badge' }, outputContext())
    expect([badge.width, badge.height]).toEqual([300, 150])
    const { channels } = await sharp(badge.bytes).stats()
    expect(channels.slice(0, 3).map((c) => Math.round(c.mean))).toEqual([0, 0, 255])
    const clip = await png.render(tall, { clip: { x: 10, y: 20, width: 50, height: 30 } }, outputContext())
    expect([clip.width, clip.height]).toEqual([50, 30])
  })

  it('fails with render_failed when the selector matches nothing', async () => {
    const err = await png.render(tall, { selector: '#nothing' }, outputContext()).catch((e) => e)
    expect(err).toBeInstanceOf(ProblemError)
    expect(err.code).toBe('render_failed')
    expect(err.message).toMatch(/no element matches/)
  })

  it('keeps the background transparent for PNG and WebP, and opaque otherwise', async () => {
    const corner = async (bytes: Buffer) => {
      const { data } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
      return data[3]
    }
    // alternating, so opaque renders land on fresh and on reused pages after transparent ones
    for (let round = 0; round < 3; round++) {
      const clear = await png.render(plain, { width: 200, height: 100, transparent: true }, outputContext())
      expect(await corner(clear.bytes)).toBe(0)
      const opaque = await png.render(plain, { width: 200, height: 100 }, outputContext())
      expect(await corner(opaque.bytes)).toBe(255)
    }
    const clearWebp = await webp.render(
      plain,
      { width: 200, height: 100, transparent: true },
      outputContext(),
    )
    expect(await corner(clearWebp.bytes)).toBe(0)
  })

  it('honours JPEG quality and warns when an option cannot apply', async () => {
    const low = await jpeg.render(tall, { quality: 5 }, outputContext())
    const high = await jpeg.render(tall, { quality: 100 }, outputContext())
    expect(low.bytes.length).toBeLessThan(high.bytes.length)
    const ctx = outputContext()
    await png.render(plain, { width: 100, height: 100, quality: 50 }, ctx)
    expect(ctx.warnings.map((w) => w.code)).toEqual(['feature_unavailable'])
  })

  it('captures test-mode images as they are: the kernel stamps TEST on the finished file', async () => {
    const test = await png.render(plain, { width: 600, height: 300 }, outputContext({ test: true }))
    expect(await reddishPixels(test.bytes)).toBe(0)
  })

  it('resets the viewport between renders on a reused page', async () => {
    await png.render(plain, { width: 300, height: 200, device_scale_factor: 3 }, outputContext())
    const next = await png.render(plain, {}, outputContext())
    expect([next.width, next.height]).toEqual([1280, 720])
  })
})

describe('html output', () => {
  it('returns the DOM after scripts ran', async () => {
    const file = await new HtmlOutput(pool).render(
      {
        kind: 'html',
        html: '<body><p id="x">static</p><script>document.getElementById("x").textContent = "made by script"</script></body>',
      },
      {},
      outputContext(),
    )
    expect(file.contentType).toBe('text/html; charset=utf-8')
    const text = file.bytes.toString('utf8')
    expect(text).toContain('<p id="x">made by script</p>')
    expect(text.startsWith('<html>')).toBe(true)
  })
})
