import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// image_canvas templates: scene checked at publish, rendered without a browser (the image canvas
// engine), data bound as `layer.property`, overrides naming a layer.

const SCENE = {
  width: 320,
  height: 160,
  background: '#ffffff',
  layers: [
    { type: 'rectangle', name: 'badge', x: 0, y: 0, width: 320, height: 40, fill: '#ff0000' },
    {
      type: 'text',
      name: 'title',
      x: 10,
      y: 60,
      width: 300,
      height: 60,
      text: 'Default',
      required: ['text'],
    },
  ],
}

describe.each(TEST_DIALECTS)('image_canvas templates on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
    await t.setPlanLimits('growth', { requests_per_second: 10_000 })
  })
  afterAll(() => t.close())

  const call = (method: 'GET' | 'POST', url: string, payload?: object, key = ws.liveKey) =>
    t.inject({ method, url: `/v1${url}`, key, ...(payload ? { payload } : {}) })

  async function published(scene: object = SCENE) {
    const tpl = (
      await call('POST', '/templates', {
        type: 'image_canvas',
        name: 'Card',
        content: scene,
        sample_data: { 'title.text': 'Sample' },
      })
    ).json()
    const res = await call('POST', `/templates/${tpl.id}/publish`)
    return { id: tpl.id as string, res }
  }

  it('publishes a scene after drawing it with the sample data, and renders a PNG of its size', async () => {
    const { id, res } = await published()
    expect(res.statusCode).toBe(201)
    expect(
      res.json().publish_run.steps.map((s: { name: string; status: string }) => [s.name, s.status]),
    ).toEqual([
      ['scene', 'passed'],
      ['data_schema', 'passed'],
      ['sample_data', 'passed'],
      ['sample_render', 'passed'],
    ])
    const png = await call('POST', '/images/from-template', {
      template_id: id,
      data: { 'title.text': 'Hello' },
      overrides: [{ name: 'badge', fill: '#0000ff' }],
      delivery: 'binary',
    })
    expect(png.statusCode).toBe(200)
    expect(png.headers['content-type']).toBe('image/png')
    const image = sharp(png.rawPayload)
    expect(await image.metadata()).toMatchObject({ format: 'png', width: 320, height: 160 })
    // the override painted the badge blue instead of red
    const { data } = await image
      .clone()
      .extract({ left: 5, top: 5, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true })
    expect([data[0], data[1], data[2]]).toEqual([0, 0, 255])
  })

  it('refuses a scene over 16,384 px per side at publish (422 scene_invalid)', async () => {
    const { res } = await published({ ...SCENE, width: 20_000 })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('scene_invalid')
    expect(res.json().publish_run.steps).toContainEqual(
      expect.objectContaining({ name: 'scene', status: 'failed', code: 'scene_invalid' }),
    )
  })

  it('refuses a 16,384 px square at publish without drawing it: its sample render is over the pixel budget', async () => {
    // publishing draws in the API process: a 1 GiB raster there would stall every request
    const { res } = await published({ ...SCENE, width: 16_384, height: 16_384 })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('scene_invalid')
    expect(res.json().publish_run.steps).toContainEqual({
      name: 'sample_render',
      status: 'failed',
      code: 'scene_invalid',
      message:
        'The output would be 16384x16384 = 268,435,456 pixels; this installation draws at most 67,108,864 pixels (DOCSVC_CANVAS_MAX_PIXELS)',
      errors: [expect.objectContaining({ path: '/width', code: 'maximum' })],
    })
  })

  it('fails a render whose data lacks a required property (422 data_invalid) and an unknown layer override (400)', async () => {
    const { id } = await published()
    const res = await call('POST', '/images/from-template', { template_id: id, data: { other: 1 } })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('data_invalid')
    // every problem, with its pointer, in the answer and in the stored render's error
    expect(res.json().errors?.length).toBeGreaterThan(0)
    expect(res.json().errors[0].path).toMatch(/^\//)
    const stored = await call('GET', `/renders/${res.json().render_id}`)
    expect(stored.json().error.errors).toEqual(res.json().errors)
    const bad = await call('POST', '/images/from-template', {
      template_id: id,
      overrides: [{ name: 'nope', fill: '#000' }],
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors).toContainEqual(
      expect.objectContaining({ path: '/overrides/0/name', code: 'unknown_layer' }),
    )
    const html = await call('POST', '/renders', {
      input: { type: 'template', template_id: id },
      output: { format: 'html' },
    })
    expect(html.statusCode).toBe(400)
    expect(html.json().errors).toContainEqual(expect.objectContaining({ path: '/output/format' }))
  })
})
