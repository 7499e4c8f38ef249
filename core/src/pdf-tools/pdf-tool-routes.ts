import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Cradle } from '../kernel/container.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { normaliseRender, type SharedBody } from '../renders/render-request.ts'
import { respondToRender } from '../renders/render-responder.ts'
import { RENDER_SET, RenderRecord, renderResponses } from '../renders/render-responses.ts'
import { isBilledTool } from './pdf-tool-billing.ts'
import { pdfToolInput } from './pdf-tool-request.ts'
import {
  protectSchemaOf,
  type RoutedPdfTool,
  TOOL_SUMMARIES,
  ToolCommonFields,
  toolFields,
} from './pdf-tool-schemas.ts'

type Fields = Record<string, unknown>

/** The output format a tool render records: split with `zip` makes a zip, the rest PDFs. */
function formatOf(tool: string, body: Fields): 'pdf' | 'zip' {
  return tool === 'split' && body.zip === true ? 'zip' : 'pdf'
}

/** POST /v1/pdf-tools/{merge,metadata,protect,rotate,split,unlock} (SPEC 4.4), each a RENDER-set route. */
export async function pdfToolRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const deps = container.cradle
  // the plugins registered before the HTTP app is built, so the PDF output's schema is known here
  const protect = protectSchemaOf(deps.plugins.registries.outputs.get('pdf')?.optionsSchema)
  const fieldsOf = toolFields(protect)
  for (const tool of Object.keys(TOOL_SUMMARIES) as RoutedPdfTool[]) {
    const fields = fieldsOf[tool]
    app.post(
      `/pdf-tools/${tool}`,
      {
        config: { scope: 'render:write' },
        schema: {
          tags: ['pdf-tools'],
          summary: TOOL_SUMMARIES[tool],
          body: Type.Object({ ...ToolCommonFields, ...fields }, { additionalProperties: false }),
          response: renderResponses({ 200: RenderRecord, 202: RenderRecord }, RENDER_SET),
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        if (tool === 'protect' && !protect) {
          throw new ProblemError(
            'service_unavailable',
            'This installation has no output "pdf" defining the protect options: no plugin registered it.',
          )
        }
        const body = request.body as Fields
        const auth = request.auth!
        const input = pdfToolInput(tool, body)
        const normalised = normaliseRender(auth, body as SharedBody, { ...input }, { format: 'pdf' }, '')
        normalised.request.output = { format: formatOf(tool, body) }
        // a missing render or upload is a 404 now, before a render is made for it
        await deps.pdfSources.precheck({ workspaceId: auth.workspace.id, test: auth.test }, input.sources)
        // a tool that is never billed (decision 0009) is not stopped when the renders are used up
        const render = await deps.renderService.create(auth, request.plan!, {
          ...normalised,
          unbilled: !isBilledTool(tool),
        })
        return respondToRender(deps, request, reply, render, request.plan!.limits.sync_timeout_seconds)
      },
    )
  }
}
