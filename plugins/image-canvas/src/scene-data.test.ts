import { ProblemError } from '@docsvc/core/sdk'
import { describe, expect, it } from 'vitest'
import { pixels, RED, rejection, render, WHITE } from './canvas-test-support.ts'
import { applySceneData } from './scene-data.ts'
import type { Scene } from './scene-schema.ts'

const scene = {
  width: 200,
  height: 100,
  background: '#ffffff',
  layers: [
    { type: 'rectangle', name: 'badge', x: 0, y: 0, width: 50, height: 50, fill: '#ff0000' },
    { type: 'text', name: 'title', x: 60, y: 0, width: 140, height: 40, text: '', font_size: 20 },
  ],
} as Scene

const titleBox = { x: 60, y: 0, width: 140, height: 40 }

function applied(data: unknown) {
  const warnings: { code: string; message: string }[] = []
  const result = applySceneData(scene, data, (code, message) => warnings.push({ code, message }))
  const layer = (name: string) => result.scene.layers.find((l) => l.name === name) as Record<string, unknown>
  return { layer, bound: result.bound, warnings }
}

function problem(data: unknown, design: Scene = scene): ProblemError {
  try {
    applySceneData(design, data, () => {})
  } catch (err) {
    return err as ProblemError
  }
  throw new Error('expected data_invalid')
}

describe('dynamic properties from data', () => {
  it('sets layer.property from flat and nested keys, and the drawing follows', async () => {
    const { file, warnings } = await render(scene, {
      'badge.fill': '#0000ff',
      title: { text: 'Dynamic title' },
    })
    const img = await pixels(file.bytes)
    expect(img.at(25, 25)).toEqual({ r: 0, g: 0, b: 255, a: 255 })
    expect(img.inkIn(titleBox, WHITE)).toBeGreaterThan(100)
    expect(warnings).toEqual([])
    // the design without data: red badge, empty title
    const plain = await pixels((await render(scene)).file.bytes)
    expect(plain.at(25, 25)).toEqual(RED)
    expect(plain.inkIn(titleBox, WHITE)).toBe(0)
  })

  it('lets the flat key win over the nested one and records what data set', () => {
    const { layer, bound } = applied({ 'title.text': 'flat', title: { text: 'nested', color: '#ff0000' } })
    expect(layer('title').text).toBe('flat')
    expect(layer('title').color).toBe('#ff0000')
    expect(Object.fromEntries(bound)).toEqual({ 'title.text': '/title.text', 'title.color': '/title/color' })
  })

  it('leaves unrelated data alone: other keys, non-objects under a layer name', () => {
    const { layer, warnings } = applied({ customer: 'Ada', title: 'not an object', 'other.thing': 1 })
    expect(layer('title').text).toBe('')
    expect(warnings).toEqual([])
  })

  it('coerces near types with data_coerced', () => {
    const { layer, warnings } = applied({
      'title.text': 42,
      'title.font_size': ' 18.5 ',
      'title.font_weight': 650.4,
      'title.visible': 'true',
      'title.align': 'CENTER',
      'badge.opacity': '0.5',
    })
    expect(layer('title')).toMatchObject({
      text: '42',
      font_size: 18.5,
      font_weight: 650,
      visible: true,
      align: 'center',
    })
    expect(layer('badge').opacity).toBe(0.5)
    expect(warnings).toEqual([
      { code: 'data_coerced', message: 'badge.opacity was converted to 0.5' },
      { code: 'data_coerced', message: 'title.text was converted to "42"' },
      { code: 'data_coerced', message: 'title.font_size was converted to 18.5' },
      { code: 'data_coerced', message: 'title.font_weight was converted to 650' },
      { code: 'data_coerced', message: 'title.visible was converted to true' },
      { code: 'data_coerced', message: 'title.align was converted to "center"' },
    ])
  })

  it('keeps the design value for null and for properties a layer does not take, with data_coerced', () => {
    const { layer, warnings } = applied({
      'badge.fill': null,
      'badge.text': 'x',
      title: { type: 'image', name: 'n' },
    })
    expect(layer('badge').fill).toBe('#ff0000')
    expect(layer('title').type).toBe('text')
    expect(warnings).toEqual([
      { code: 'data_coerced', message: 'badge.text is not a property a rectangle layer takes; ignored' },
      { code: 'data_coerced', message: 'title.type is not a property a text layer takes; ignored' },
      { code: 'data_coerced', message: 'title.name is not a property a text layer takes; ignored' },
      { code: 'data_coerced', message: "badge.fill is null; the design's value was kept" },
    ])
  })

  it('rejects data that is not an object with data_invalid', async () => {
    for (const data of [null, [1, 2], 'text', 3]) {
      const err = problem(data)
      expect(err).toBeInstanceOf(ProblemError)
      expect(err.code).toBe('data_invalid')
      expect(err.extras.errors).toEqual([{ path: '', code: 'type', message: 'must be an object' }])
    }
  })

  it('rejects values that cannot be used with data_invalid naming each property', async () => {
    const err = await rejection(() =>
      render(scene, {
        'title.text': { nested: true },
        'title.font_size': 'big',
        'badge.fill': 'reddish',
        title: { align: 'justify' },
        'badge.opacity': 3,
      }),
    )
    expect(err.code).toBe('data_invalid')
    expect(err.message).toBe('Canvas data cannot be used: badge.opacity must be <= 1')
    expect(err.extras.errors).toEqual([
      { path: '/badge.opacity', code: 'maximum', message: 'badge.opacity must be <= 1' },
      {
        path: '/badge.fill',
        code: 'pattern',
        message: 'badge.fill must be a colour: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba() or transparent',
      },
      { path: '/title.text', code: 'type', message: 'title.text must be a string, got an object' },
      {
        path: '/title.font_size',
        code: 'type',
        message: 'title.font_size must be a number, got string "big"',
      },
      {
        path: '/title/align',
        code: 'type',
        message: 'title.align must be one of "left", "center", "right", got string "justify"',
      },
    ])
  })

  it('rejects missing required dynamic properties with data_invalid', () => {
    const design = {
      ...scene,
      layers: scene.layers.map((l) => (l.name === 'title' ? { ...l, required: ['text'] } : l)),
    } as Scene
    for (const data of [{}, { 'title.text': null }, { title: { color: '#000000' } }]) {
      const err = problem(data, design)
      expect(err.code).toBe('data_invalid')
      expect(err.extras.errors).toEqual([
        {
          path: '/title.text',
          code: 'required',
          message: 'title.text is required by the design and missing from data',
        },
      ])
    }
    expect(() => applySceneData(design, { title: { text: 'ok' } }, () => {})).not.toThrow()
  })

  it('reports a barcode or QR value from data that cannot be encoded as data_invalid', async () => {
    const codes = {
      width: 300,
      height: 200,
      layers: [
        {
          type: 'barcode',
          name: 'ean',
          x: 0,
          y: 0,
          width: 200,
          height: 80,
          symbology: 'ean13',
          value: '5901234123457',
        },
        { type: 'qr', name: 'link', x: 200, y: 0, width: 100, height: 100, value: 'https://example.com' },
      ],
    }
    const ean = await rejection(() => render(codes, { 'ean.value': 'not digits' }))
    expect(ean.code).toBe('data_invalid')
    expect(ean.extras.errors).toEqual([
      {
        path: '/ean.value',
        code: 'invalid',
        message: expect.stringContaining('ean.value cannot be a ean13 barcode'),
      },
    ])
    const qr = await rejection(() => render(codes, { link: { value: 'x'.repeat(3500) } }))
    expect(qr.code).toBe('data_invalid')
    expect(qr.extras.errors).toEqual([
      {
        path: '/link/value',
        code: 'invalid',
        message: 'link.value cannot be a QR code: The amount of data is too big to be stored in a QR Code',
      },
    ])
  })
})
