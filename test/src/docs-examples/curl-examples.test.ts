import { describe, expect, it } from 'vitest'
import { curlExamples, excerptMismatch, parseAnswer } from './curl-examples.ts'
import { fencedBlocks } from './markdown-blocks.ts'

// The checker of the docs' examples must be able to fail: these are the cases it refuses.

describe('documented answers', () => {
  it('reads the status, the headers and the JSON excerpt', () => {
    expect(
      parseAnswer('HTTP/1.1 400\nContent-Type: application/problem+json\n\n{"code": "x"}', 'here'),
    ).toEqual({
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
      body: { code: 'x' },
    })
    expect(() => parseAnswer('400 Bad Request', 'here')).toThrow(/does not start with "HTTP\/1.1 <status>"/)
    expect(() => parseAnswer('HTTP/1.1 200\n\n{oops', 'here')).toThrow(/not JSON/)
  })

  it('pairs each command with the answer after it, and refuses a command without one', () => {
    const page = '```sh\ncurl "$BASE/v1/account"\n```\n\n```http\nHTTP/1.1 200\n```\n\n```sh\ncurl x\n```\n'
    expect(() => curlExamples(fencedBlocks(page, 'p.md'), 'p.md')).toThrow(/p.md line 9: a command needs/)
    const ok = '```sh\ncurl "$BASE/v1/account"\n```\n\n```http\nHTTP/1.1 200\n```\n\n```text\nnot run\n```\n'
    expect(curlExamples(fencedBlocks(ok, 'p.md'), 'p.md')).toMatchObject([
      { line: 1, command: 'curl "$BASE/v1/account"', expected: { status: 200 } },
    ])
  })
})

describe('excerpts', () => {
  it('match by the fields shown and bind $NAME strings', () => {
    const bindings: Record<string, string> = {}
    const actual = {
      id: 'rnd_1',
      status: 'succeeded',
      files: [{ url: 'http://x/f', id: 'f1' }, {}],
      extra: 1,
    }
    expect(excerptMismatch({ id: '$RENDER_ID', files: [{ url: 'http…' }] }, actual, bindings)).toBeUndefined()
    expect(bindings).toEqual({ RENDER_ID: 'rnd_1' })
  })

  it('name the first place an answer departs', () => {
    const bindings = {}
    expect(excerptMismatch({ status: 'failed' }, { status: 'succeeded' }, bindings)).toBe(
      '/status: expected "failed", got "succeeded"',
    )
    expect(excerptMismatch({ errors: [{ path: '/a' }] }, { errors: [] }, bindings)).toMatch(
      /^\/errors\/0: expected an object/,
    )
    expect(excerptMismatch({ url: 'https…' }, { url: 'http://x' }, bindings)).toMatch(/^\/url:/)
    expect(excerptMismatch({ id: '$ID' }, { id: 7 }, bindings)).toBe('/id: expected a string, got 7')
    expect(excerptMismatch([1], {}, bindings)).toBe('/: expected an array, got {}')
  })
})
