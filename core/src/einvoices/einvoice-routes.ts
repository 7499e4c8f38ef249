import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Cradle } from '../kernel/container.ts'
import { normaliseRender, type SharedBody } from '../renders/render-request.ts'
import { respondToRender } from '../renders/render-responder.ts'
import { RENDER_SET, RenderRecord, renderResponses } from '../renders/render-responses.ts'
import type { EinvoiceSyntax } from '../sdk/einvoice-contracts.ts'
import { EINVOICE_INPUT, EINVOICE_KIND, type EinvoiceInput } from './einvoice-request.ts'
import { einvoiceBody } from './einvoice-schemas.ts'

interface Body extends Omit<SharedBody, 'filename'> {
  invoice: Record<string, unknown>
  profile: string
  syntax?: EinvoiceSyntax
  filename?: string | null
}

/** POST /v1/einvoices (SPEC 4.3): one `einvoice` render of kind `einvoice_xml`, RENDER set. */
export async function einvoiceRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const deps = container.cradle
  // the profile plugins registered before the HTTP app is built: the document lists them
  const installed = deps.plugins.registries.einvoiceProfiles.keys()
  app.post(
    '/einvoices',
    {
      config: { scope: 'render:write' },
      schema: {
        tags: ['einvoices'],
        summary: 'Create e-invoice XML (CII or UBL) from an invoice model, validated',
        body: einvoiceBody(installed),
        response: renderResponses({ 200: RenderRecord, 202: RenderRecord }, RENDER_SET),
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as Body
      const auth = request.auth!
      // syntax null until the producer applies the profile's default
      const input = {
        type: EINVOICE_INPUT,
        profile: body.profile,
        syntax: body.syntax ?? null,
        invoice: body.invoice,
      } as unknown as EinvoiceInput
      const { filename, ...shared } = body
      const named = filename == null ? shared : { ...shared, filename }
      const normalised = normaliseRender(auth, named, { ...input }, { format: 'pdf' }, '')
      normalised.request.output = { format: 'xml' }
      const render = await deps.renderService.create(auth, request.plan!, {
        ...normalised,
        kind: EINVOICE_KIND,
      })
      return respondToRender(deps, request, reply, render, request.plan!.limits.sync_timeout_seconds)
    },
  )
}
