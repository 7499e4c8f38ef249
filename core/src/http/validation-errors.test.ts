import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { probeRoutes } from './probe-routes.fixture.ts'

function problems(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(400)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  const body = res.json()
  expect(body.code).toBe('validation_error')
  for (const e of body.errors) {
    expect(e.path === '' || e.path.startsWith('/')).toBe(true)
    expect(typeof e.code).toBe('string')
    expect(typeof e.message).toBe('string')
  }
  return body.errors as { path: string; code: string; message: string; in?: string }[]
}

describe.each(TEST_DIALECTS)('400 validation_error through HTTP on %s', (dialect) => {
  const probe = probeRoutes()
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, extraV1Routes: [probe.routes] })
    ws = await t.createWorkspace()
  })
  afterAll(() => t?.close())

  const post = (payload: unknown, url = '/v1/test-echo') =>
    t.inject({ method: 'POST', url, key: ws.testKey, payload: payload as Record<string, unknown> })

  it('points at a missing required field', async () => {
    const res = await post({ count: 1 })
    expect(problems(res)).toEqual([{ path: '/name', code: 'required', message: 'is required' }])
    expect(res.json().detail).toBe('/name: is required')
  })

  it('points at an unknown field', async () => {
    expect(problems(await post({ name: 'x', colour: 'red' }))).toEqual([
      { path: '/colour', code: 'unknown_field', message: 'is not a known field' },
    ])
  })

  it('never coerces a string to a number or a number to a string in bodies', async () => {
    const before = probe.calls.echo
    const errors = problems(await post({ name: 5, count: '5' }))
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/name', code: 'type' }),
        expect.objectContaining({ path: '/count', code: 'type' }),
      ]),
    )
    expect(errors).toHaveLength(2)
    expect(probe.calls.echo).toBe(before)
  })

  it('points into arrays and nested objects', async () => {
    const errors = problems(
      await post({ name: 'x', items: [{ qty: 1 }, { name: 'b', qty: 0 }, { name: 'c', size: 2 }] }),
    )
    expect(errors).toEqual([
      { path: '/items/0/name', code: 'required', message: 'is required' },
      expect.objectContaining({ path: '/items/1/qty', code: 'minimum' }),
      { path: '/items/2/size', code: 'unknown_field', message: 'is not a known field' },
    ])
  })

  it('escapes / and ~ in field names (RFC 6901)', async () => {
    const errors = problems(await post({ name: 'x', 'a/b': 1, 'c~d': 2 }))
    expect(errors.map((e) => e.path).sort()).toEqual(['/a~1b', '/c~0d'])
  })

  it('reports every problem at once, without a location for body fields', async () => {
    const errors = problems(await post({ count: -1, extra: true }))
    expect(errors.map((e) => e.path).sort()).toEqual(['/count', '/extra', '/name'])
    for (const e of errors) expect(e.in).toBeUndefined()
  })

  it('says the body must be an object when it is not', async () => {
    expect(problems(await post([1, 2]))).toEqual([expect.objectContaining({ path: '', code: 'type' })])
  })

  it('marks query-string problems with in: query', async () => {
    const before = probe.calls.echo
    expect(problems(await post({ name: 'x' }, '/v1/test-echo?limit=abc'))).toEqual([
      { path: '/limit', code: 'type', message: 'must be integer', in: 'query' },
    ])
    expect(problems(await post({ name: 'x' }, '/v1/test-echo?limit=500'))).toEqual([
      expect.objectContaining({ path: '/limit', code: 'maximum', in: 'query' }),
    ])
    expect(problems(await post({ name: 'x' }, '/v1/test-echo?sort=asc'))).toEqual([
      expect.objectContaining({ path: '/sort', code: 'unknown_field', in: 'query' }),
    ])
    expect(probe.calls.echo).toBe(before)
  })

  it('takes numbers in query strings in decimal digits only, not whatever JavaScript reads as one', async () => {
    for (const odd of ['0x10', '1e1', '%2012', '', '0b11', 'Infinity']) {
      expect(problems(await post({ name: 'x' }, `/v1/test-echo?limit=${odd}`))).toEqual([
        { path: '/limit', code: 'type', message: 'must be integer', in: 'query' },
      ])
    }
    const negative = await post({ name: 'x' }, '/v1/test-echo?limit=-1')
    expect(problems(negative)).toEqual([expect.objectContaining({ path: '/limit', code: 'minimum' })])
  })

  it('still reads query strings as their declared types', async () => {
    const res = await post({ name: 'x' }, '/v1/test-echo?limit=7')
    expect(res.statusCode).toBe(201)
    expect(res.json().query).toEqual({ limit: 7 })
  })
})
