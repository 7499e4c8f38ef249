import type { OutboundGuardApi } from '@docsvc/core/sdk'
import { ProblemError } from '@docsvc/core/sdk'
import { fakeInputContext } from '@docsvc/core/testing'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { inputUrlPlugin } from './index.ts'
import { createUrlInput } from './url-input.ts'
import { UrlInputSchema } from './url-input-schema.ts'

const fakeContext = fakeInputContext

/** A guard that refuses one host and records what it was asked. */
function fakeGuard(refusedHost: string) {
  const checked: string[] = []
  const guard: OutboundGuardApi = {
    async checkUrl(text) {
      checked.push(text)
      const url = new URL(text)
      if (url.hostname === refusedHost)
        throw new ProblemError('url_not_allowed', `${url.host} is not allowed`)
      return url
    },
    resolveChecked: () => Promise.reject(new Error('unused')),
    fetch: () => Promise.reject(new Error('unused')),
  }
  return { guard, checked }
}

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise
  } catch (err) {
    if (err instanceof ProblemError) return err
    throw err
  }
  throw new Error('expected a ProblemError')
}

const valid = (extra: Record<string, unknown> = {}) => ({ url: 'https://example.com/page', ...extra })

describe('url input: schema', () => {
  it('accepts the documented fields', () => {
    expect(Value.Check(UrlInputSchema, valid())).toBe(true)
    expect(Value.Check(UrlInputSchema, valid({ wait: null, http: null }))).toBe(true)
    expect(
      Value.Check(
        UrlInputSchema,
        valid({
          wait: { until: 'networkidle', selector: '#ready', timeout_ms: 120_000, delay_ms: 0 },
          http: {
            basic_auth: { username: 'ada', password: 's3cret' },
            headers: { 'Accept-Language': 'de', Authorization: 'Bearer t', 'X-Trace': '1' },
            cookies: [{ name: 'session', value: 'abc', domain: '.example.com', path: '/' }],
          },
        }),
      ),
    ).toBe(true)
  })

  it.each([
    ['a missing url', {}],
    ['a url without a scheme', { url: 'example.com/page' }],
    ['a url with spaces', { url: 'https://exa mple.com' }],
    ['an unknown field', valid({ html: '<p>' })],
    ['wait.timeout_ms 0', valid({ wait: { timeout_ms: 0 } })],
    ['wait.timeout_ms 999999', valid({ wait: { timeout_ms: 999_999 } })],
    ['a fractional wait.timeout_ms', valid({ wait: { timeout_ms: 1.5 } })],
    ['wait.delay_ms over 30000', valid({ wait: { delay_ms: 30_001 } })],
    ['an unknown wait.until', valid({ wait: { until: 'idle' } })],
    ['an unknown wait field', valid({ wait: { timeout: 5 } })],
    ['a Host header', valid({ http: { headers: { Host: 'internal' } } })],
    ['a hop-by-hop header in any case', valid({ http: { headers: { 'TRANSFER-encoding': 'chunked' } } })],
    ['a Connection header', valid({ http: { headers: { connection: 'close' } } })],
    ['a header name with a space', valid({ http: { headers: { 'X A': '1' } } })],
    ['a header value with a line break', valid({ http: { headers: { 'X-A': '1\r\nHost: x' } } })],
    [
      '21 headers',
      valid({
        http: { headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-h${i}`, 'v'])) },
      }),
    ],
    [
      '51 cookies',
      valid({ http: { cookies: Array.from({ length: 51 }, (_, i) => ({ name: `c${i}`, value: 'v' })) } }),
    ],
    ['a cookie value with ;', valid({ http: { cookies: [{ name: 'a', value: 'b; Path=/' }] } })],
    ['basic_auth without password', valid({ http: { basic_auth: { username: 'ada' } } })],
    ['a username with a colon', valid({ http: { basic_auth: { username: 'a:b', password: 'x' } } })],
    ['an unknown http field', valid({ http: { proxy: 'x' } })],
  ])('refuses %s', (_name, candidate) => {
    expect(Value.Check(UrlInputSchema, candidate)).toBe(false)
  })

  it('accepts exactly 20 headers and 50 cookies', () => {
    const headers = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-h${i}`, 'v']))
    const cookies = Array.from({ length: 50 }, (_, i) => ({ name: `c${i}`, value: 'v' }))
    expect(Value.Check(UrlInputSchema, valid({ http: { headers, cookies } }))).toBe(true)
  })
})

describe('url input: resolve', () => {
  const input = createUrlInput()

  it('returns the URL with its wait and http options', async () => {
    const wait = { until: 'load' as const, selector: 'main', timeout_ms: 5_000 }
    const http = { headers: { 'X-A': '1' }, cookies: [{ name: 'a', value: 'b' }] }
    const doc = await input.resolve({ url: 'https://example.com/a?b=1', wait, http }, fakeContext().ctx)
    expect(doc).toEqual({ kind: 'url', url: 'https://example.com/a?b=1', wait, http })
  })

  it('leaves out wait and http given as null', async () => {
    const doc = await input.resolve({ url: 'http://example.com', wait: null, http: null }, fakeContext().ctx)
    expect(doc).toEqual({ kind: 'url', url: 'http://example.com/' })
  })

  it.each([
    ['file:///etc/passwd', 'file: URLs are not allowed; use http or https'],
    ['ftp://example.com/x', 'ftp: URLs are not allowed; use http or https'],
    ['javascript:alert(1)', 'javascript: URLs are not allowed; use http or https'],
    ['https://user:pw@example.com/', 'URLs may not carry credentials; use http.basic_auth'],
    ['http://[::1', 'http://[::1 is not an absolute URL'],
  ])('refuses %s with url_not_allowed', async (url, detail) => {
    const err = await problemOf(input.resolve({ url }, fakeContext().ctx))
    expect(err.code).toBe('url_not_allowed')
    expect(err.detail).toBe(detail)
  })

  it('asks the outbound guard, and its refusal stands', async () => {
    const { guard, checked } = fakeGuard('169.254.169.254')
    const guarded = createUrlInput({ guard })
    await expect(guarded.resolve({ url: 'https://example.com/' }, fakeContext().ctx)).resolves.toMatchObject({
      url: 'https://example.com/',
    })
    const err = await problemOf(guarded.resolve({ url: 'http://169.254.169.254/latest' }, fakeContext().ctx))
    expect(err.code).toBe('url_not_allowed')
    expect(checked).toEqual(['https://example.com/', 'http://169.254.169.254/latest'])
  })

  it('warns that data is ignored', async () => {
    const { ctx, warnings } = fakeContext({ a: 1 })
    await input.resolve({ url: 'https://example.com/' }, ctx)
    expect(warnings).toEqual(['feature_unavailable'])
  })

  it('registers the url input with the host guard', async () => {
    const { guard, checked } = fakeGuard('none')
    const added: Record<string, unknown> = {}
    const registries = { inputs: { add: (key: string, value: unknown) => (added[key] = value) } }
    inputUrlPlugin.register({ registries, host: { guard } } as never)
    expect(Object.keys(added)).toEqual(['url'])
    await (added.url as typeof input).resolve({ url: 'https://example.com/' }, fakeContext().ctx)
    expect(checked).toEqual(['https://example.com/'])
  })
})
