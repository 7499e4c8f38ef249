import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ProblemError } from '@docsvc/core/sdk'
import { pdfInfo, pdfText } from '@docsvc/core/testing'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { codes, distance, pixels, RED, rejection, render, WHITE } from './canvas-test-support.ts'
import { isOpaqueColor } from './render-scene.ts'

/** Words of a PDF with their boxes in points (pdftotext -bbox). */
function pdfWords(pdf: Buffer): { word: string; xMin: number; xMax: number }[] {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-pdf-'))
  try {
    writeFileSync(join(dir, 'out.pdf'), pdf)
    const html = execFileSync('pdftotext', ['-bbox', join(dir, 'out.pdf'), '-'], { encoding: 'utf8' })
    return [
      ...html.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g),
    ].map((m) => ({ word: m[3]!, xMin: Number(m[1]), xMax: Number(m[2]) }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const redSquare = {
  width: 200,
  height: 100,
  background: '#ffffff',
  layers: [{ type: 'rectangle', name: 'box', x: 20, y: 20, width: 40, height: 40, fill: '#ff0000' }],
}

describe('renderScene: formats and sizes', () => {
  it('draws a PNG of the scene size with the rectangle where the scene puts it', async () => {
    const { file, warnings } = await render(redSquare)
    expect(file).toMatchObject({ format: 'png', contentType: 'image/png', width: 200, height: 100 })
    const meta = await sharp(file.bytes).metadata()
    expect(meta).toMatchObject({ format: 'png', width: 200, height: 100 })
    const img = await pixels(file.bytes)
    expect(img.at(40, 40)).toEqual(RED)
    expect(img.at(10, 10)).toEqual(WHITE)
    expect(img.at(70, 40)).toEqual(WHITE)
    expect(warnings).toEqual([])
  })

  it('encodes JPEG and WebP with the asked quality', async () => {
    const photo = { ...redSquare, layers: [...redSquare.layers, noiseText] }
    const jpegLow = (await render(photo, {}, { format: 'jpeg', image: { quality: 10 } })).file
    const jpegHigh = (await render(photo, {}, { format: 'jpeg', image: { quality: 95 } })).file
    expect(await sharp(jpegLow.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 200, height: 100 })
    expect(jpegLow.contentType).toBe('image/jpeg')
    expect(jpegLow.bytes.length).toBeLessThan(jpegHigh.bytes.length)
    const webp = (await render(photo, {}, { format: 'webp' })).file
    expect(webp.contentType).toBe('image/webp')
    expect(await sharp(webp.bytes).metadata()).toMatchObject({ format: 'webp', width: 200, height: 100 })
    const img = await pixels(webp.bytes)
    expect(distance(img.at(40, 40), RED)).toBeLessThan(40)
  })

  it('makes a one-page PDF the size of the canvas (72/96 points per pixel) with its text extractable', async () => {
    const scene = {
      width: 800,
      height: 400,
      background: '#ffffff',
      layers: [
        { type: 'rectangle', name: 'box', x: 20, y: 20, width: 40, height: 40, fill: '#ff0000' },
        { type: 'text', name: 'left', x: 20, y: 100, width: 360, height: 40, text: 'Invoice Café 42 你好' },
        {
          type: 'text',
          name: 'right',
          x: 400,
          y: 300,
          width: 380,
          height: 40,
          text: 'Total due',
          align: 'right',
        },
        {
          type: 'text',
          name: 'turned',
          x: 20,
          y: 300,
          width: 300,
          height: 40,
          text: 'Sideways',
          rotation: 90,
        },
      ],
    }
    const { file } = await render(scene, {}, { format: 'pdf' })
    expect(file).toMatchObject({ format: 'pdf', contentType: 'application/pdf', pages: 1 })
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-')
    const info = pdfInfo(file.bytes)
    expect(info.Pages).toBe('1')
    expect(info['Page size']).toMatch(/^600 x 300 pts/)
    // the picture carries the look; the text is there again as invisible text, where it is drawn
    expect(
      pdfText(file.bytes)
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.trim()),
    ).toEqual(['Invoice Café 42', 'Total due'])
    const words = pdfWords(file.bytes)
    const invoice = words.find((w) => w.word === 'Invoice')!
    const due = words.find((w) => w.word === 'due')!
    expect(invoice.xMin).toBeCloseTo(20 * 0.75, 0) // left edge of its box
    expect(due.xMax).toBeGreaterThan(780 * 0.75 - 4) // right-aligned to the box's right edge
    expect(due.xMax).toBeLessThan(780 * 0.75 + 4)
  })

  it('scales by device_scale_factor and fits the scene into an asked width and height', async () => {
    const doubled = (await render(redSquare, {}, { image: { device_scale_factor: 2 } })).file
    expect(await sharp(doubled.bytes).metadata()).toMatchObject({ width: 400, height: 200 })
    expect((await pixels(doubled.bytes)).at(80, 80)).toEqual(RED)

    const narrow = (await render(redSquare, {}, { image: { width: 100 } })).file
    expect(await sharp(narrow.bytes).metadata()).toMatchObject({ width: 100, height: 50 })
    expect((await pixels(narrow.bytes)).at(20, 20)).toEqual(RED)

    // a square output: the 2:1 scene is centred with background above and below
    const square = (await render(redSquare, {}, { image: { width: 200, height: 200 } })).file
    const img = await pixels(square.bytes)
    expect(img.width).toBe(200)
    expect(img.at(40, 90)).toEqual(RED)
    expect(img.at(40, 40)).toEqual(WHITE)
  })

  it('refuses an output over 16,384 pixels per side with scene_invalid', async () => {
    const err = await rejection(() =>
      render({ ...redSquare, width: 10_000 }, {}, { image: { device_scale_factor: 2 } }),
    )
    expect(err).toBeInstanceOf(ProblemError)
    expect(err.code).toBe('scene_invalid')
    expect(err.message).toContain('20000x200')
    // WebP stores a side in 14 bits: its encoder would fail after the drawing
    const webp = await rejection(() => render({ ...redSquare, width: 16_384 }, {}, { format: 'webp' }))
    expect(webp).toMatchObject({ code: 'scene_invalid' })
    expect(webp.message).toBe(
      'The output would be 16384x100 pixels; a WebP canvas is at most 16383 pixels per side',
    )
  })

  it("encodes a large opaque raster off the event loop (sharp's PNG) with the same pixels", async () => {
    // past 4 million pixels opaquePng's row filtering would hold the event loop
    const large = {
      ...redSquare,
      width: 2100,
      height: 2000,
      layers: [{ ...redSquare.layers[0], width: 1000 }],
    }
    const file = (await render(large)).file
    expect(await sharp(file.bytes).metadata()).toMatchObject({ format: 'png', width: 2100, height: 2000 })
    const img = await pixels(file.bytes)
    expect(img.at(500, 40)).toEqual(RED)
    expect(img.at(1500, 40)).toEqual(WHITE)
  })

  it("makes a PDF of a raster sharp encoded (transparent): sharp's native buffer is copied for the thread", async () => {
    const pdf = (await render(redSquare, {}, { format: 'pdf', image: { transparent: true } })).file
    expect(pdf).toMatchObject({ format: 'pdf', pages: 1 })
    expect(pdfInfo(pdf.bytes)).toMatchObject({ Pages: '1' })
  })

  describe('the pixel budget (DOCSVC_CANVAS_MAX_PIXELS), checked before drawing', () => {
    const BUDGET = 100 * 100
    const sized = (width: number, height: number) => ({ ...redSquare, width, height, layers: [] })
    const refusal = async (...args: Parameters<typeof render>) => {
      const err = await rejection(() => render(...args))
      expect(err).toBeInstanceOf(ProblemError)
      return err
    }

    it('draws an output of exactly the budget; one more row of pixels is scene_invalid naming /width', async () => {
      const at = (await render(sized(100, 100), {}, { maxPixels: BUDGET })).file
      expect(at).toMatchObject({ width: 100, height: 100 })
      const err = await refusal(sized(100, 101), {}, { maxPixels: BUDGET })
      expect(err.code).toBe('scene_invalid')
      expect(err.message).toBe(
        'The output would be 100x101 = 10,100 pixels; this installation draws at most 10,000 pixels (DOCSVC_CANVAS_MAX_PIXELS)',
      )
      expect(err.extras).toEqual({
        errors: [
          {
            path: '/width',
            code: 'maximum',
            message: 'output of 10,100 pixels over 10,000 pixels (DOCSVC_CANVAS_MAX_PIXELS)',
          },
        ],
      })
    })

    it('counts device_scale_factor squared, and names no scene field when the image options set the size', async () => {
      const scaled = { image: { device_scale_factor: 2 }, maxPixels: BUDGET }
      expect((await render(sized(50, 50), {}, scaled)).file).toMatchObject({ width: 100, height: 100 })
      expect((await refusal(sized(50, 51), {}, scaled)).message).toContain('100x102 = 10,200 pixels')
      const wide = await refusal(sized(50, 50), {}, { image: { width: 101 }, maxPixels: BUDGET })
      expect(wide.message).toContain('101x101 = 10,201 pixels')
      expect(wide.extras).toMatchObject({ errors: [{ path: '', code: 'maximum' }] })
    })

    it("counts a PDF's own scale of 2: a 50x50 canvas is a 100x100 raster", async () => {
      const pdf = (await render(sized(50, 50), {}, { format: 'pdf', maxPixels: BUDGET })).file
      expect(pdf).toMatchObject({ format: 'pdf', pages: 1 })
      const err = await refusal(sized(50, 51), {}, { format: 'pdf', maxPixels: BUDGET })
      expect(err.message).toContain('100x102 = 10,200 pixels')
    })
  })

  it('keeps transparency for PNG and warns where an option cannot apply', async () => {
    const clear = (await render(redSquare, {}, { image: { transparent: true } })).file
    const img = await pixels(clear.bytes)
    expect(img.at(10, 10).a).toBe(0)
    expect(img.at(40, 40)).toEqual(RED)

    const jpeg = await render(redSquare, {}, { format: 'jpeg', image: { transparent: true } })
    expect(codes(jpeg.warnings)).toEqual(['feature_unavailable'])
    expect(distance((await pixels(jpeg.file.bytes)).at(10, 10), WHITE)).toBeLessThan(10)

    const page = await render(redSquare, {}, { image: { full_page: true, selector: '#x' } as never })
    expect(page.warnings).toEqual([
      {
        code: 'feature_unavailable',
        message: 'full_page applies to page screenshots, not to canvas templates; ignored',
      },
      {
        code: 'feature_unavailable',
        message: 'selector applies to page screenshots, not to canvas templates; ignored',
      },
    ])

    const png = await render(redSquare, {}, { image: { quality: 50 } })
    expect(png.warnings).toEqual([
      { code: 'feature_unavailable', message: 'quality applies to jpeg and webp; PNG ignores it' },
    ])
  })

  it('keeps a translucent or transparent scene background in PNG and WebP', async () => {
    const translucent = await pixels((await render({ ...redSquare, background: '#0000ff80' })).file.bytes)
    expect(distance(translucent.at(10, 10), { r: 0, g: 0, b: 255, a: 128 })).toBeLessThan(4)
    expect(translucent.at(40, 40)).toEqual(RED)
    const clear = (await render({ ...redSquare, background: 'transparent' }, {}, { format: 'webp' })).file
    expect(await sharp(clear.bytes).metadata()).toMatchObject({ hasAlpha: true })
    expect((await pixels(clear.bytes)).at(10, 10).a).toBe(0)
  })

  it('stops when the render is aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('canceled'))
    await expect(render(redSquare, {}, { signal: controller.signal })).rejects.toThrow('canceled')
  })
})

describe('isOpaqueColor', () => {
  it('tells colours without transparency', () => {
    for (const color of ['#fff', '#FFFFFF', '#fffF', '#ffffffff', 'rgb(1, 2, 3)', 'rgba(1,2,3,1)'])
      expect(isOpaqueColor(color), color).toBe(true)
    for (const color of ['transparent', '#fff8', '#ffffff80', 'rgba(1, 2, 3, 0.5)', 'rgba(1,2,3,0)'])
      expect(isOpaqueColor(color), color).toBe(false)
  })
})

describe('renderScene: shapes', () => {
  it('draws ellipses, lines, outlines, opacity and rotation', async () => {
    const scene = {
      width: 300,
      height: 300,
      background: '#ffffff',
      layers: [
        { type: 'ellipse', name: 'dot', x: 0, y: 0, width: 100, height: 100, fill: '#0000ff' },
        { type: 'line', name: 'rule', x: 0, y: 150, x2: 300, y2: 150, stroke: '#00ff00', stroke_width: 4 },
        {
          type: 'rectangle',
          name: 'half',
          x: 200,
          y: 0,
          width: 100,
          height: 100,
          fill: '#ff0000',
          opacity: 0.5,
        },
        // 200 wide, 20 tall, turned 90 degrees about its centre (150, 250): now 20 wide, 200 tall
        {
          type: 'rectangle',
          name: 'turned',
          x: 50,
          y: 240,
          width: 200,
          height: 20,
          fill: '#000000',
          rotation: 90,
        },
        {
          type: 'rectangle',
          name: 'framed',
          x: 20,
          y: 180,
          width: 60,
          height: 60,
          fill: 'transparent',
          stroke: '#ff00ff',
          stroke_width: 6,
        },
      ],
    }
    const img = await pixels((await render(scene)).file.bytes)
    expect(img.at(50, 50)).toEqual({ r: 0, g: 0, b: 255, a: 255 })
    expect(img.at(5, 5)).toEqual(WHITE) // outside the circle, inside its box
    expect(img.at(100, 150)).toEqual({ r: 0, g: 255, b: 0, a: 255 })
    expect(distance(img.at(250, 50), { r: 255, g: 128, b: 128, a: 255 })).toBeLessThan(6)
    expect(img.at(150, 280)).toEqual({ r: 0, g: 0, b: 0, a: 255 }) // rotated: reaches down here
    expect(img.at(60, 250)).toEqual(WHITE) // ... and no longer spans this way
    expect(img.at(20, 210)).toEqual({ r: 255, g: 0, b: 255, a: 255 })
    expect(img.at(50, 210)).toEqual(WHITE)
  })

  it('leaves out layers marked invisible', async () => {
    const scene = { ...redSquare, layers: [{ ...redSquare.layers[0], visible: false }] }
    expect((await pixels((await render(scene)).file.bytes)).at(40, 40)).toEqual(WHITE)
  })
})

const noiseText = {
  type: 'text',
  name: 'noise',
  x: 80,
  y: 10,
  width: 110,
  height: 80,
  text: 'Quality shows in detail',
  font_size: 14,
}
