import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel } from '../testing/test-kernel.ts'

describe('the documentation site', () => {
  let t: TestKernel
  beforeAll(async () => {
    t = await startTestKernel()
  })
  afterAll(async () => {
    await t?.close()
  })

  it('serves an index of the guides without a key, loading nothing from elsewhere', async () => {
    const res = await t.inject({ method: 'GET', url: '/docs' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toContain("default-src 'none'")
    expect(res.body).toContain('<a href="/docs/guides/first-render">Your first render</a>')
    expect(res.body).toContain('<a href="/docs/errors">Error codes</a>')
    expect(res.body).not.toMatch(/<script|https?:\/\/(?!www\.)/)
    const css = await t.inject({ method: 'GET', url: '/docs/site.css' })
    expect(css.statusCode).toBe(200)
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8')
  })

  it('renders a guide from Markdown, links between pages pointing at the site', async () => {
    const res = await t.inject({ method: 'GET', url: '/docs/guides/first-render' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<h1>Your first render</h1>')
    expect(res.body).toContain('<a href="/docs/guides/first-render" aria-current="page">')
    // docs/guides/09-errors.md in the repository is /docs/guides/errors on the site
    expect(res.body).toContain('<a href="errors">Errors</a>')
    expect(res.body).toContain('<pre><code class="language-sh">curl')
  })

  it('answers one page per problem code with its status, title and explanation', async () => {
    const res = await t.inject({ method: 'GET', url: '/docs/errors/invalid_json' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<h1>invalid_json</h1>')
    expect(res.body).toContain('<strong>HTTP 400</strong> · Body is not valid JSON')
    expect(res.body).toContain('<h2>Fixed</h2>')
    const list = await t.inject({ method: 'GET', url: '/docs/errors' })
    expect(list.body).toContain('<a href="/docs/errors/wait_timeout">wait_timeout</a>')
  })

  it('answers 404 problems for a guide or code that does not exist, naming where the list is', async () => {
    for (const [url, where] of [
      ['/docs/guides/nope', '/docs'],
      ['/docs/errors/nope', '/docs/errors'],
    ] as const) {
      const res = await t.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toMatchObject({ code: 'not_found' })
      expect(res.json().detail).toContain(`the list is at ${where}`)
    }
  })
})
