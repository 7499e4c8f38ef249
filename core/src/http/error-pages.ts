import type { FastifyInstance } from 'fastify'
import type { Config } from '../kernel/config.ts'
import { escapeHtml } from '../kernel/escape-html.ts'
import { isProblemCode, PROBLEM_CODES } from '../kernel/problem-codes.ts'
import { ProblemError } from '../kernel/problem-error.ts'

/** Problem `type` URIs resolve on the installation itself: one page per code, and the list. */
export async function errorPageRoutes(app: FastifyInstance, _opts: { config: Config }): Promise<void> {
  app.get(
    '/docs/errors',
    { schema: { hide: true }, config: { access: 'public' } },
    async (_request, reply) => {
      const rows = Object.entries(PROBLEM_CODES)
        .map(
          ([code, [status, title]]) =>
            `<tr><td>${status}</td><td><a href="errors/${code}">${code}</a></td><td>${escapeHtml(title)}</td></tr>`,
        )
        .join('\n')
      return reply
        .type('text/html; charset=utf-8')
        .send(`<!doctype html><title>docsvc errors</title><h1>Error codes</h1><table>${rows}</table>`)
    },
  )
  app.get<{ Params: { code: string } }>(
    '/docs/errors/:code',
    { schema: { hide: true }, config: { access: 'public' } },
    async (request, reply) => {
      const { code } = request.params
      if (!isProblemCode(code)) throw new ProblemError('not_found', `No error code ${code}.`)
      const [status, title] = PROBLEM_CODES[code]
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><title>${code}</title><h1>${code}</h1><p>HTTP ${status}: ${escapeHtml(title)}.</p><p><a href="../errors">All error codes</a></p>`,
        )
    },
  )
}
