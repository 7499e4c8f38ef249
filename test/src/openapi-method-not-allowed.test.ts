import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel } from '../../core/src/testing/index.ts'
import { fillPath, type OpenApiDocument, operationsOf, pathParams } from './openapi-document.ts'
import { servedDocument } from './served-document.ts'
import { fetchWire } from './wire-client.ts'

// Issue 15: a path answers a method it does not take with 405 and `Allow`, and the document says
// so on every operation of every path. These tests hold the document to what the service really
// answers: for each path, one request with a method it does not take, compared with the 405 its
// operations document (status, media type, the exact Allow value, the code). A wrong method is
// answered before any key is looked at (there is no operation to authorize), so none is sent.

interface Documented405 {
  description: string
  headers?: { Allow?: { schema?: { const?: string } } }
  content?: Record<string, { schema?: { $ref?: string; properties?: { code?: { enum?: string[] } } } }>
}

/** Methods tried as the wrong one, in order: the first the path does not take is sent. */
const WRONG_METHODS = ['DELETE', 'PUT', 'PATCH', 'POST', 'GET']

describe('the OpenAPI document says what a wrong method answers', () => {
  let t: TestKernel
  let base: string
  let doc: OpenApiDocument

  beforeAll(async () => {
    // requests no route takes are limited per address, as anonymous ones: this test sends many
    t = await startTestKernel({ env: { DOCSVC_ANONYMOUS_REQUESTS_PER_SECOND: '1000000' } })
    ;({ base, doc } = await servedDocument(t))
  })
  afterAll(() => t?.close())

  /** The 405 the operations of `path` document, each the same; `undefined` where one lacks it. */
  function documented405(path: string): (Documented405 | undefined)[] {
    return [...operationsOf(doc)]
      .filter(([p]) => p === path)
      .map(([, , operation]) => operation.responses['405'] as Documented405 | undefined)
  }

  it('documents a 405 with Allow on every operation, naming the methods the path takes', () => {
    const wrong: string[] = []
    for (const path of Object.keys(doc.paths)) {
      const methods = [...operationsOf(doc)].filter(([p]) => p === path).map(([, m]) => m.toUpperCase())
      for (const [i, response] of documented405(path).entries()) {
        const allow = response?.headers?.Allow?.schema?.const
        const media = Object.keys(response?.content ?? {})
        if (!allow || media.join() !== 'application/problem+json')
          wrong.push(`${methods[i]} ${path}: ${JSON.stringify(response)}`)
        else if (!methods.every((m) => allow.split(', ').includes(m)))
          wrong.push(`${path}: Allow ${allow} lacks one of ${methods.join(', ')}`)
      }
      if (new Set(documented405(path).map((r) => JSON.stringify(r))).size !== 1)
        wrong.push(`${path}: its operations document different 405s`)
    }
    expect(wrong).toEqual([])
  })

  it('answers a wrong method at every path exactly as the document says', async () => {
    const differs: string[] = []
    for (const path of Object.keys(doc.paths)) {
      const response = documented405(path)[0]
      const allow = response?.headers?.Allow?.schema?.const ?? ''
      const method = WRONG_METHODS.find((m) => !allow.split(', ').includes(m)) as string
      const values = Object.fromEntries(pathParams(path).map((name) => [name, 'x1']))
      const res = await fetchWire(`${base}${fillPath(path, values)}`, { method })
      const [media] = Object.keys(response?.content ?? {})
      const codes = response?.content?.[media ?? '']?.schema?.properties?.code?.enum ?? []
      const code = res.headers['content-type']?.startsWith('application/')
        ? (JSON.parse(res.body) as { code?: string }).code
        : undefined
      const seen = `${res.status} ${res.headers['content-type']?.split(';')[0]} Allow: ${res.headers.allow} ${code}`
      const said = `405 ${media} Allow: ${allow} ${codes.join('|')}`
      if (seen !== said) differs.push(`${method} ${path}: answered ${seen}; documented ${said}`)
    }
    expect(differs).toEqual([])
    // the paths of the document really were tried, with and without parameters
    expect(Object.keys(doc.paths).length).toBeGreaterThan(40)
    expect(Object.keys(doc.paths)).toContain('/v1/renders/{render_id}')
  })
})
