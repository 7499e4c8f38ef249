import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Cradle } from '../kernel/container.ts'
import { escapeHtml } from '../kernel/escape-html.ts'
import { PROBLEM_CODES } from '../kernel/problem-codes.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { VERIFY_PATH } from './verification-links.ts'

const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

/**
 * The public end of a verification link. GET shows a page with a button and changes nothing:
 * mail scanners that open links must not spend a one-time link. POST verifies. A browser gets
 * HTML (errors too); any other client JSON, errors as problem+json.
 */
export async function verifyEmailRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const { memberService } = container.cradle
  // the page's form posts no fields; its body is read and dropped
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, {}),
  )
  const route = { schema: { hide: true }, config: { access: 'public' as const } }

  app.get<{ Params: { token: string } }>(`${VERIFY_PATH}/:token`, route, async (request, reply) =>
    answer(request, reply, async () => {
      const member = await memberService.checkLink(request.params.token)
      return {
        json: { status: 'pending', email: member.email, detail: 'POST to this URL to verify the address.' },
        html: page(
          'Verify your email address',
          `<p>Confirm that ${escapeHtml(member.email)} is your address.</p><form method="post"><button type="submit">Verify my email address</button></form>`,
        ),
      }
    }),
  )
  app.post<{ Params: { token: string } }>(`${VERIFY_PATH}/:token`, route, async (request, reply) =>
    answer(request, reply, async () => {
      const member = await memberService.verify(request.params.token)
      return {
        json: { status: 'verified', email: member.email, verified_at: member.verified_at },
        html: page(
          'Email address verified',
          `<p>${escapeHtml(member.email)} is verified. You can close this page.</p>`,
        ),
      }
    }),
  )
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html')
}

interface Answer {
  json: Record<string, unknown>
  html: string
}

/** JSON clients get JSON and problem+json; browsers a page, also for a bad or used link. */
async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  make: () => Promise<Answer> | Answer,
): Promise<unknown> {
  if (!wantsHtml(request)) return (await make()).json
  reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8')
  try {
    return (await make()).html
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err
    const [status, title] = PROBLEM_CODES[err.code]
    reply.code(status)
    return page(title, `<p>${escapeHtml(err.detail ?? title)}</p>`)
  }
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
}
