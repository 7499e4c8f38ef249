import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Options under the name the output format does not read would be ignored: they are refused at
// their field instead, on the general endpoint and on previews.

describe('options for another output format', () => {
  let t: TestKernel
  let ws: TestWorkspace
  beforeAll(async () => {
    t = await startTestKernel()
    ws = await t.createWorkspace()
  })
  afterAll(() => t?.close())

  it.each([
    [
      '/v1/renders',
      { input: { type: 'html', html: '<p>x</p>' }, output: { format: 'pdf', image: { full_page: true } } },
      '/output/image',
      'pdf',
    ],
    [
      '/v1/renders',
      { input: { type: 'html', html: '<p>x</p>' }, output: { format: 'png', pdf: { landscape: true } } },
      '/output/pdf',
      'png',
    ],
    [
      '/v1/previews/pdf',
      { template_type: 'pdf_code', content: { html: '<p>x</p>' }, output: { image: { full_page: true } } },
      '/output/image',
      'pdf',
    ],
  ])('%s refuses them at their field (400)', async (url, payload, path, format) => {
    const res = await t.inject({
      method: 'POST',
      url,
      key: ws.testKey,
      // previews take no mode; they answer at once
      payload: url === '/v1/renders' ? { ...payload, mode: 'async' } : payload,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('validation_error')
    expect(res.json().errors).toEqual([
      expect.objectContaining({
        path,
        code: 'conflict',
        message: expect.stringContaining(`apply to ${format} output`),
      }),
    ])
  })

  it('still takes null under the other name', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.testKey,
      payload: {
        input: { type: 'html', html: '<p>x</p>' },
        output: { format: 'pdf', image: null },
        mode: 'async',
      },
    })
    expect(res.statusCode).toBe(202)
  })
})
