import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { probeRoutes } from './probe-routes.fixture.ts'

describe.each(TEST_DIALECTS)('content types and JSON parsing on %s', (dialect) => {
  const probe = probeRoutes()
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, extraV1Routes: [probe.routes] })
    ws = await t.createWorkspace()
  })
  afterAll(() => t?.close())

  function post(payload: string, headers: Record<string, string>) {
    return t.inject({ method: 'POST', url: '/v1/test-echo', key: ws.testKey, headers, payload })
  }

  it.each([
    ['text/plain', 'text/plain', '{"name":"x"}'],
    ['text/plain with charset', 'text/plain; charset=utf-8', '{"name":"x"}'],
    ['a form', 'application/x-www-form-urlencoded', 'name=x'],
    [
      'multipart',
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--',
    ],
    ['XML', 'application/xml', '<name>x</name>'],
  ])('answers 415 unsupported_media_type for %s on a JSON route', async (_label, type, payload) => {
    const before = probe.calls.echo
    const res = await post(payload, { 'content-type': type })
    expect(res.statusCode).toBe(415)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status: 415, code: 'unsupported_media_type' })
    expect(res.json().request_id).toBe(res.headers['x-request-id'])
    expect(probe.calls.echo).toBe(before)
  })

  it('answers 415 for a body sent without any content type', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/test-echo',
      key: ws.testKey,
      payload: Buffer.from('{"name":"x"}'),
    })
    expect(res.statusCode).toBe(415)
    expect(res.json().code).toBe('unsupported_media_type')
  })

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/merge-patch+json',
  ])('takes JSON sent as %s', async (type) => {
    const res = await post('{"name":"x"}', { 'content-type': type })
    expect(res.statusCode).toBe(201)
    expect(res.json().body).toEqual({ name: 'x' })
  })

  it.each([
    ['malformed', '{"name":'],
    ['empty', ''],
    ['only whitespace', ' \n\t '],
    ['followed by garbage', '{"name":"x"} trailing'],
    ['single-quoted', "{'name':'x'}"],
    ['nested 600 levels deep', `{"name":"x","items":${'['.repeat(600)}${']'.repeat(600)}}`],
  ])('answers 400 invalid_json for a %s body', async (_label, payload) => {
    const before = probe.calls.echo
    const res = await post(payload, { 'content-type': 'application/json' })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status: 400, code: 'invalid_json' })
    expect(res.json().errors).toBeUndefined()
    expect(probe.calls.echo).toBe(before)
  })

  it('drops __proto__ keys instead of polluting prototypes', async () => {
    const res = await post('{"name":"x","__proto__":{"polluted":true}}', {
      'content-type': 'application/json',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().body).toEqual({ name: 'x' })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
