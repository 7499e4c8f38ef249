import { ProblemError } from '@docsvc/core/sdk'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { rejection, render } from './canvas-test-support.ts'
import { SceneSchema } from './scene-schema.ts'
import { sceneProblems, validateScene } from './scene-validation.ts'

const valid = {
  width: 1200,
  height: 630,
  background: '#0f172a',
  layers: [
    { type: 'text', name: 'title', x: 60, y: 60, width: 600, height: 200, text: 'Hi', required: ['text'] },
    { type: 'image', name: 'photo', x: 700, y: 0, width: 500, height: 630, src: 'https://example.com/a.jpg' },
    { type: 'rectangle', name: 'badge', x: 60, y: 500, width: 100, height: 40, fill: 'rgba(255, 0, 0, 0.5)' },
    { type: 'ellipse', name: 'dot', x: 0, y: 0, width: 10, height: 10 },
    { type: 'line', name: 'rule', x: 0, y: 300, x2: 600, y2: 300 },
    { type: 'qr', name: 'qr', x: 1000, y: 430, width: 160, height: 160, value: 'https://example.com' },
    {
      type: 'barcode',
      name: 'sku',
      x: 300,
      y: 500,
      width: 200,
      height: 80,
      value: '12345',
      symbology: 'code128',
    },
  ],
}

function problemsOf(scene: unknown) {
  try {
    validateScene(scene)
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError)
    expect((err as ProblemError).code).toBe('scene_invalid')
    return (err as ProblemError).extras.errors
  }
  throw new Error('expected scene_invalid')
}

describe('validateScene', () => {
  it('accepts a scene using every layer type', () => {
    expect(sceneProblems(valid)).toEqual([])
    expect(() => validateScene(valid)).not.toThrow()
  })

  it('exports SceneSchema as plain JSON Schema that ajv (the HTTP layer) agrees with', () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(
      JSON.parse(JSON.stringify(SceneSchema)),
    )
    expect(validate(valid)).toBe(true)
    expect(validate({ ...valid, layers: [{ ...valid.layers[2], fill: 'red-ish' }] })).toBe(false)
    expect(validate({ ...valid, width: 16_385 })).toBe(false)
  })

  it('refuses a side over 16,384 pixels', () => {
    expect(problemsOf({ ...valid, width: 16_385 })).toEqual([
      { path: '/width', code: 'maximum', message: 'must be <= 16384' },
    ])
  })

  it('refuses an unknown layer type, naming the known ones', () => {
    expect(problemsOf({ ...valid, layers: [{ type: 'video', name: 'clip' }] })).toEqual([
      {
        path: '/layers/0/type',
        code: 'enum',
        message: 'must be one of "text", "image", "rectangle", "ellipse", "line", "qr", "barcode"',
      },
    ])
  })

  it('refuses duplicate layer names', () => {
    const layers = [valid.layers[0], { ...valid.layers[2], name: 'title' }]
    expect(problemsOf({ ...valid, layers })).toEqual([
      { path: '/layers/1/name', code: 'duplicate', message: '"title" is already the name of layer 0' },
    ])
  })

  it('reports every field problem of a layer with its pointer', () => {
    const layers = [
      {
        type: 'text',
        name: 'has space',
        x: 0,
        y: 0,
        width: 10,
        height: 10,
        color: 'red-ish',
        align: 'justify',
        colour: '#fff',
      },
      { type: 'line', name: 'rule' },
      { type: 'barcode', name: 'sku', width: 10, height: 10, symbology: 'qr-ish' },
    ]
    const problems = problemsOf({ ...valid, layers })
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '/layers/0/colour', code: 'unknown_field', message: 'is not a known field' },
        {
          path: '/layers/0/name',
          code: 'pattern',
          message: 'must start with a letter or _ and hold at most 64 letters, digits, _ and -',
        },
        {
          path: '/layers/0/color',
          code: 'pattern',
          message: 'must be a colour: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba() or transparent',
        },
        { path: '/layers/0/align', code: 'enum', message: 'must be one of "left", "center", "right"' },
        { path: '/layers/1/x2', code: 'required', message: 'is required' },
        { path: '/layers/1/y2', code: 'required', message: 'is required' },
        {
          path: '/layers/2/symbology',
          code: 'enum',
          message: expect.stringContaining('"code128", "code39", "ean13"'),
        },
      ]),
    )
    expect(problems).toHaveLength(7)
  })

  it('refuses `required` entries that are not properties of the layer type', () => {
    const layers = [{ ...valid.layers[2], required: ['text'] }]
    expect(problemsOf({ ...valid, layers })).toEqual([
      {
        path: '/layers/0/required/0',
        code: 'enum',
        message: expect.stringMatching(/^must be a rectangle layer property: "x", "y"/),
      },
    ])
  })

  it('refuses what is not a scene', () => {
    expect(problemsOf('scene')).toEqual([{ path: '', code: 'type', message: 'must be an object' }])
    expect(problemsOf({ width: 10 })).toEqual([
      { path: '/height', code: 'required', message: 'is required' },
      { path: '/layers', code: 'required', message: 'is required' },
    ])
    expect(
      problemsOf({
        ...valid,
        layers: Array.from({ length: 201 }, (_, i) => ({ ...valid.layers[3], name: `d${i}` })),
      }),
    ).toEqual([{ path: '/layers', code: 'maxItems', message: 'must not have more than 200 items' }])
  })

  it('puts the first problem in the detail and is checked by renderScene too', async () => {
    const err = await rejection(() => render({ ...valid, height: 0 }))
    expect(err.code).toBe('scene_invalid')
    expect(err.message).toBe('Scene cannot be rendered: /height must be >= 1')
  })

  it('reports a code value in the design that cannot be encoded as scene_invalid', async () => {
    const scene = {
      width: 200,
      height: 100,
      layers: [{ type: 'barcode', name: 'ean', width: 200, height: 100, symbology: 'ean13', value: '12' }],
    }
    const err = await rejection(() => render(scene))
    expect(err.code).toBe('scene_invalid')
    expect(err.extras.errors).toEqual([
      {
        path: '/layers/0/value',
        code: 'invalid',
        message: 'ean.value cannot be a ean13 barcode: EAN-13 must be 12 or 13 digits',
      },
    ])
  })
})
