import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

// A sync `binary` render whose filename holds characters a header cannot carry (found by the
// schema fuzzing: Node refused the raw name, and the request was never answered). The name goes
// out as RFC 6266/8187 asks, the same way file downloads send it.

describe('the file name of a binary render', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace()
  })
  afterAll(() => t?.close())

  it.each([
    [
      'Résumé ✓ 2026',
      `inline; filename="R_sum_ _ 2026.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E2%9C%93%20${'2026'}.pdf`,
    ],
    ['年度報告', `inline; filename="____.pdf"; filename*=UTF-8''%E5%B9%B4%E5%BA%A6%E5%A0%B1%E5%91%8A.pdf`],
    ['a%20b;c', `inline; filename="a_20b;c.pdf"; filename*=UTF-8''a%2520b%3Bc.pdf`],
  ])('sends %s as an ASCII fallback and the exact UTF-8 name', async (filename, header) => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.testKey,
      payload: { html: '<p>named</p>', delivery: 'binary', filename },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toBe(header)
    expect(res.body).toContain('named')
  })
})
