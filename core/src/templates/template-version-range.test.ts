import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Version numbers past the 32-bit column (found by the schema fuzzing: a 500 on PostgreSQL) name
// no version, and as a list cursor leave every version in, on both databases.

describe.each(TEST_DIALECTS)('template version numbers beyond the column on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let templateId: string
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.inject({ method, url, key: ws.testKey, ...(payload ? { payload } : {}) })

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS })
    ws = await t.createWorkspace()
    templateId = (
      await call('POST', '/v1/templates', { type: 'pdf_code', name: 'V', html: '<p>v</p>' })
    ).json().id
    expect((await call('POST', `/v1/templates/${templateId}/publish`, {})).statusCode).toBe(201)
  })
  afterAll(() => t?.close())

  it.each(['2147483648', '41114925132', '8204141182872171', '99999999999999999999'])(
    'answers version %s with 404 version_not_found, by path and in a rollback',
    async (n) => {
      const byPath = await call('GET', `/v1/templates/${templateId}/versions/${n}`)
      expect(byPath.statusCode, byPath.body).toBe(404)
      expect(byPath.json().code).toBe('version_not_found')
      if (Number.isSafeInteger(Number(n))) {
        const rollback = await call('POST', `/v1/templates/${templateId}/rollback`, { version: Number(n) })
        expect(rollback.statusCode, rollback.body).toBe(404)
        expect(rollback.json().code).toBe('version_not_found')
      }
    },
  )

  it('lists every version before a cursor past the column', async () => {
    const res = await call('GET', `/v1/templates/${templateId}/versions?cursor=41114925132`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data.map((v: { number: number }) => v.number)).toEqual([1])
    const found = await call('GET', `/v1/templates/${templateId}/versions/2147483647`)
    expect(found.statusCode).toBe(404)
  })
})
