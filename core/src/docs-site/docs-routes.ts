import { readFileSync } from 'node:fs'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { escapeHtml } from '../kernel/escape-html.ts'
import { isProblemCode, PROBLEM_CODES } from '../kernel/problem-codes.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { loadErrorPages, loadGuides } from './docs-content.ts'
import { markdownToHtml, type NavLink, pageHtml } from './render-page.ts'

const STYLESHEET = readFileSync(new URL('./site.css', import.meta.url), 'utf8')

// Pages load nothing but the site's own stylesheet; nothing on them runs.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
}

function send(reply: FastifyReply, type: string, body: string): FastifyReply {
  return reply.headers(SECURITY_HEADERS).type(type).send(body)
}

/**
 * The documentation site at /docs, public like the problem `type` URIs that point into it: the
 * guides of docs/guides and one page per problem code (docs/errors), rendered once at start.
 */
export async function docsRoutes(app: FastifyInstance): Promise<void> {
  const guides = loadGuides()
  const errorPages = loadErrorPages()
  const nav: NavLink[] = [
    ...guides.map((g) => ({ href: `/docs/guides/${g.slug}`, label: g.title })),
    { href: '/docs/errors', label: 'Error codes' },
  ]
  const page = (title: string, current: string, body: string) => pageHtml({ title, nav, current, body })

  const index = page(
    'Documentation',
    '/docs',
    `<h1>docsvc documentation</h1><p>Guides, one per task; every example on them is run by the test suite as printed. The API reference is at <a href="/v1/reference">/v1/reference</a>.</p><ul>${guides
      .map((g) => `<li><a href="/docs/guides/${g.slug}">${escapeHtml(g.title)}</a></li>`)
      .join('')}<li><a href="/docs/errors">Error codes</a></li></ul>`,
  )
  const guidePages = new Map(
    guides.map((g) => [g.slug, page(g.title, `/docs/guides/${g.slug}`, markdownToHtml(g.markdown))]),
  )
  const errorRows = Object.entries(PROBLEM_CODES)
    .map(
      ([code, [status, title]]) =>
        `<tr><td>${status}</td><td><a href="/docs/errors/${code}">${code}</a></td><td>${escapeHtml(title)}</td></tr>`,
    )
    .join('\n')
  const errorIndex = page(
    'Error codes',
    '/docs/errors',
    `<h1>Error codes</h1><p>Every error is <code>application/problem+json</code> with a stable <code>code</code>; its <code>type</code> links to the page below, which says what causes it and shows a wrong request next to the fixed one.</p><p>The examples use the shell variables of the <a href="/docs/guides/first-render">first guide</a> (<code>BASE</code>, <code>KEY</code>, a test key); some also <code>LIVE_KEY</code>, a live key of the same workspace, <code>WORKSPACE_ID</code>, and <code>OPERATOR_TOKEN</code>, the installation's <code>DOCSVC_OPERATOR_TOKEN</code>, for what only an operator can set up.</p><table><thead><tr><th scope="col">Status</th><th scope="col">Code</th><th scope="col">Title</th></tr></thead><tbody>${errorRows}</tbody></table>`,
  )
  const codePages = new Map(
    Object.entries(PROBLEM_CODES).map(([code, [status, title]]) => [
      code,
      page(
        code,
        '/docs/errors',
        `<h1>${code}</h1><p><strong>HTTP ${status}</strong> · ${escapeHtml(title)}</p>${markdownToHtml(errorPages.get(code) ?? '')}<p><a href="/docs/errors">All error codes</a></p>`,
      ),
    ]),
  )

  const options = { schema: { hide: true }, config: { access: 'public' as const } }
  const html = 'text/html; charset=utf-8'
  app.get('/docs', options, async (_request, reply) => send(reply, html, index))
  app.get('/docs/site.css', options, async (_request, reply) =>
    send(reply, 'text/css; charset=utf-8', STYLESHEET),
  )
  app.get<{ Params: { slug: string } }>('/docs/guides/:slug', options, async (request, reply) => {
    const found = guidePages.get(request.params.slug)
    if (!found) throw new ProblemError('not_found', `No guide ${request.params.slug}; the list is at /docs.`)
    return send(reply, html, found)
  })
  app.get('/docs/errors', options, async (_request, reply) => send(reply, html, errorIndex))
  app.get<{ Params: { code: string } }>('/docs/errors/:code', options, async (request, reply) => {
    const { code } = request.params
    if (!isProblemCode(code))
      throw new ProblemError('not_found', `No error code ${code}; the list is at /docs/errors.`)
    return send(reply, html, codePages.get(code) as string)
  })
}
