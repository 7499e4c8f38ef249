import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  memoryLogger,
  startTestKernel,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'

// Issue 15 item 3, "errors that say how to fix", through HTTP with the real plugins' schemas:
// each case is a request a reviewer sent and the answer that left them reading the source.
// The API role only: every answer here is given before anything renders.

let t: TestKernel
let ws: TestWorkspace
const log = memoryLogger()

beforeAll(async () => {
  t = await startTestKernel({ logger: log.logger })
  ws = await t.createWorkspace({ plan: 'scale' })
}, 60_000)
afterAll(() => t?.close())

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  payload?: object,
  key = ws.testKey,
) => t.inject({ method, url, key, ...(payload ? { payload } : {}) })

async function errorsOf(url: string, payload: object) {
  const res = await send('POST', url, payload)
  expect(res.statusCode).toBe(400)
  expect(res.json().code).toBe('validation_error')
  return res.json().errors as { path: string; code: string; message: string }[]
}

describe('a value outside a field’s set lists the values the field takes', () => {
  it('pdf.format', async () => {
    expect(await errorsOf('/v1/pdf/from-html', { html: 'x', pdf: { format: 'a4' } })).toEqual([
      { path: '/pdf/format', code: 'enum', message: 'must be one of: A3, A4, A5, Letter, Legal, Tabloid' },
    ])
  })

  it('delivery', async () => {
    expect(await errorsOf('/v1/pdf/from-html', { html: 'x', delivery: 'bin' })).toEqual([
      {
        path: '/delivery',
        code: 'enum',
        message: 'must be one of: url, binary, base64, none (or an object or null)',
      },
    ])
  })

  it('rotate degrees', async () => {
    const errors = await errorsOf('/v1/pdf-tools/rotate', {
      source: { url: 'https://example.com/a.pdf' },
      degrees: 45,
    })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ path: '/degrees', code: 'enum' })
    expect(errors[0]!.message).toMatch(/^must be one of: (-?\d+, )+-?\d+$/)
    expect(errors[0]!.message).toContain('90')
  })

  it('webhook endpoint events', async () => {
    const errors = await errorsOf('/v1/webhook-endpoints', {
      url: 'https://example.com/hook',
      events: ['render.done'],
    })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ path: '/events/0', code: 'enum' })
    expect(errors[0]!.message).toMatch(/^must be one of: render\.succeeded, render\.failed, /)
  })

  it('input.type, template included (a producer makes it, not an input plugin)', async () => {
    expect(await errorsOf('/v1/renders', { input: { type: 'templat' } })).toEqual([
      { path: '/input/type', code: 'enum', message: 'must be one of: html, markdown, template, url' },
    ])
  })
})

describe('an unknown field near a known one says which was meant', () => {
  it('a PDF option sent at the top of /v1/pdf/from-html', async () => {
    expect(await errorsOf('/v1/pdf/from-html', { html: 'x', landscape: true })).toEqual([
      {
        path: '/landscape',
        code: 'unknown_field',
        message: 'is not a known field; did you mean pdf.landscape?',
      },
    ])
  })

  it('a PDF option sent at the top of /v1/renders (two levels down)', async () => {
    expect(await errorsOf('/v1/renders', { input: { type: 'html', html: 'x' }, landscape: true })).toEqual([
      {
        path: '/landscape',
        code: 'unknown_field',
        message: 'is not a known field; did you mean output.pdf.landscape?',
      },
    ])
  })

  it('a wait option sent inside pdf', async () => {
    const url = 'https://example.com/'
    expect(await errorsOf('/v1/pdf/from-url', { url, pdf: { waitUntil: 'load' } })).toEqual([
      {
        path: '/pdf/waitUntil',
        code: 'unknown_field',
        message: 'is not a known field; did you mean wait.until?',
      },
    ])
  })

  it('a typo in a plugin option and in a route field', async () => {
    expect(await errorsOf('/v1/pdf/from-html', { html: 'x', pdf: { pageRanges: '1' } })).toEqual([
      {
        path: '/pdf/pageRanges',
        code: 'unknown_field',
        message: 'is not a known field; did you mean pdf.page_ranges?',
      },
    ])
    expect(
      await errorsOf('/v1/webhook-endpoints', {
        url: 'https://example.com/h',
        events: ['render.failed'],
        is_defualt: true,
      }),
    ).toEqual([
      {
        path: '/is_defualt',
        code: 'unknown_field',
        message: 'is not a known field; did you mean is_default?',
      },
    ])
  })

  it('no hint when nothing is close', async () => {
    expect(await errorsOf('/v1/pdf/from-html', { html: 'x', colour: 'red' })).toEqual([
      { path: '/colour', code: 'unknown_field', message: 'is not a known field' },
    ])
  })
})

describe('the convenience endpoints point at the fields the client sent', () => {
  it('an input plugin’s field: /wait/selector, not /input/wait/selector', async () => {
    const res = await send('POST', '/v1/pdf/from-url', { url: 'https://example.com/', wait: { selector: 5 } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual([{ path: '/wait/selector', code: 'type', message: 'must be string' }])
    expect(res.json().detail).toBe('/wait/selector: must be string')
  })

  it('an option of the image output: /image/…, not /output/image/…', async () => {
    const res = await send('POST', '/v1/images/from-html', { html: 'x', image: { quality: 'high' } })
    expect(res.statusCode).toBe(400)
    for (const e of res.json().errors) expect(e.path).toMatch(/^\/image\//)
  })
})

describe('capabilities.inputs', () => {
  it('lists template with the input plugins', async () => {
    const res = await send('GET', '/v1/account')
    expect(res.json().capabilities.inputs).toEqual(['html', 'markdown', 'template', 'url'])
  })
})

describe('a wrong method on a known path', () => {
  it('answers 405 method_not_allowed with Allow, as problem+json', async () => {
    const res = await send('GET', '/v1/pdf/from-html')
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('POST')
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'method_not_allowed', status: 405 })
    expect(res.json().detail).toContain('POST')
  })

  it('lists HEAD with GET, and every method a path with parameters takes', async () => {
    const res = await send('POST', '/v1/renders/rnd_01aaaaaaaaaaaaaaaaaaaaaaaa')
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
    const account = await send('DELETE', '/v1/account')
    expect(account.statusCode).toBe(405)
    expect(account.headers.allow).toBe('GET, HEAD')
  })

  it('still answers 404 for a path nothing serves', async () => {
    const res = await send('GET', '/v1/no-such-thing')
    expect(res.statusCode).toBe(404)
    expect(res.json().code).toBe('not_found')
    expect(res.headers.allow).toBeUndefined()
  })
})

describe('a render of the other mode', () => {
  it('stays 404 with a hint about modes that reads the same for an id that does not exist', async () => {
    const made = await send('POST', '/v1/renders', { input: { type: 'html', html: 'x' }, mode: 'async' })
    expect(made.statusCode).toBe(202)
    const id = made.json().id as string
    const other = await send('GET', `/v1/renders/${id}`, undefined, ws.liveKey)
    expect(other.statusCode).toBe(404)
    expect(other.json().code).toBe('render_not_found')
    expect(other.json().detail).toBe(
      `No render ${id} for this live key. A live key sees only renders made with live keys; a render made with a test key is read with a test key.`,
    )
    const missing = 'rnd_01aaaaaaaaaaaaaaaaaaaaaaaa'
    const none = await send('GET', `/v1/renders/${missing}`, undefined, ws.liveKey)
    expect(none.json().detail).toBe(other.json().detail.replace(id, missing))
  })
})

describe('a library’s own words', () => {
  it('stay out of the body and go to the log with the request id', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.testKey,
      headers: { 'content-type': 'application/json' },
      payload: '{"html": "x",, }',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('invalid_json')
    // where the parser stopped helps; its sentence ("Expected double-quoted property name…") does not
    expect(res.json().detail).toMatch(/^The body is not valid JSON at (line 1, column \d+|character \d+)\.$/)
    const requestId = res.headers['x-request-id']
    const logged = log.lines.find((l) => l.request_id === requestId && l.internal)
    expect(logged).toMatchObject({ code: 'invalid_json', internal: expect.stringMatching(/JSON/) })
    expect(res.body).not.toContain(String(logged?.internal))
  })
})
