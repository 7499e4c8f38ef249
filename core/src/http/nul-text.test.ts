import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// A NUL (U+0000) in any text of a request is a 400 naming the field, on both databases; on
// PostgreSQL it used to reach the database and come back a 500 (found by the schema fuzzing).

describe.each(TEST_DIALECTS)('NUL characters in requests on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let templateId: string

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS })
    ws = await t.createWorkspace()
    const created = await t.inject({
      method: 'POST',
      url: '/v1/templates',
      key: ws.testKey,
      payload: { type: 'pdf_code', name: 'NUL', html: '<p>x</p>' },
    })
    expect(created.statusCode).toBe(201)
    templateId = created.json().id
  })
  afterAll(() => t?.close())

  const cases: [string, () => { method: 'GET' | 'POST'; url: string; payload?: object }, string, string?][] =
    [
      ['a path parameter', () => ({ method: 'GET', url: '/v1/templates/tpl_%00x' }), '/template_id', 'path'],
      [
        'a query filter',
        () => ({ method: 'GET', url: '/v1/webhook-deliveries?endpoint_id=%00' }),
        '/endpoint_id',
        'query',
      ],
      [
        'a stored name',
        () => ({
          method: 'POST',
          url: `/v1/templates/${templateId}/datasets`,
          payload: { name: 'a\u0000b', data: {} },
        }),
        '/name',
      ],
      [
        'an id inside the body',
        () => ({
          method: 'POST',
          url: '/v1/pdf-tools/metadata',
          payload: { source: { upload_id: 'upl_\u0000' } },
        }),
        '/source/upload_id',
      ],
      [
        'a key of an object',
        () => ({
          method: 'POST',
          url: '/v1/pdf/from-html',
          payload: { html: '<p>x</p>', mode: 'async', metadata: { 'a\u0000': 1 } },
        }),
        '/metadata/a\u0000',
      ],
    ]

  it.each(cases)(
    'answers a NUL in %s with 400 validation_error at the field',
    async (_what, make, path, where) => {
      const res = await t.inject({ ...make(), key: ws.testKey })
      expect(res.statusCode, res.body).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      const body = res.json()
      expect(body.code).toBe('validation_error')
      expect(body.errors).toContainEqual({
        path,
        code: 'nul_character',
        message: 'must not contain U+0000 (NUL)',
        ...(where ? { in: where } : {}),
      })
    },
  )

  it('still asks for a key first, and takes an escaped backslash-u that is not a NUL', async () => {
    const unkeyed = await t.inject({ method: 'GET', url: '/v1/templates/tpl_%00x' })
    expect(unkeyed.statusCode).toBe(401)
    const literal = await t.inject({
      method: 'POST',
      url: `/v1/templates/${templateId}/datasets`,
      key: ws.testKey,
      payload: { name: 'a\\u0000b', data: { note: 'C:\\u0000' } },
    })
    expect(literal.statusCode, literal.body).toBe(201)
    expect(literal.json().name).toBe('a\\u0000b')
  })
})
