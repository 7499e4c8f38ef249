import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { problemResponse, stdResponses } from '../http/schemas/problem-schema.ts'
import type { Cradle } from '../kernel/container.ts'
import { EXTENSION_POINTS } from '../kernel/plugins/extension-points.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { routedPdfTools } from '../pdf-tools/pdf-tool-schemas.ts'
import { renderInputTypes } from '../renders/render-input-types.ts'
import { accountView } from './account-view.ts'
import { usageRoutes } from './usage-routes.ts'

const Account = Type.Object(
  {
    object: Type.Literal('account'),
    workspace: Type.Object({
      id: Type.String(),
      name: Type.String(),
      status: Type.String(),
      regions: Type.Array(Type.String()),
    }),
    key: Type.Object({ id: Type.String(), mode: Type.String(), scopes: Type.Array(Type.String()) }),
    plan: Type.Object({
      id: Type.String(),
      name: Type.String(),
      features: Type.Record(Type.String(), Type.Boolean()),
    }),
    limits: Type.Record(Type.String(), Type.Number()),
    usage: Type.Object(
      {
        cycle_start: Type.String({
          format: 'date-time',
          description: 'Start of the billing cycle (inclusive)',
        }),
        cycle_end: Type.String({ format: 'date-time', description: 'End of the billing cycle (exclusive)' }),
        renders: Type.Integer({ description: 'Live renders billed this cycle; test renders are free' }),
        included_renders: Type.Integer({ description: 'Renders the plan includes per cycle' }),
        overage_renders: Type.Integer({ description: 'Renders beyond the included ones' }),
        top_ups: Type.Integer({ description: 'Auto top-ups taken this cycle' }),
        top_up_renders: Type.Integer({ description: 'Renders one top-up adds' }),
        top_up_limit: Type.Union([Type.Integer(), Type.Null()], {
          description: 'Top-ups a cycle may take; 0: auto top-ups off; null: no limit',
        }),
        remaining_renders: Type.Integer({ description: 'Included renders not used yet' }),
        renders_until_limit: Type.Union([Type.Integer(), Type.Null()], {
          description:
            'Live renders still possible this cycle, top-ups included, less the live renders still queued or running (each holds one); null: no limit',
        }),
      },
      { additionalProperties: false },
    ),
    capabilities: Type.Record(Type.String(), Type.Array(Type.String())),
  },
  { additionalProperties: false },
)

export async function accountRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  app.get(
    '/account',
    {
      config: { scope: 'account:read' },
      schema: {
        tags: ['account'],
        summary: 'The workspace, its plan, usage so far and limits',
        response: {
          200: {
            ...Account,
            description: 'The workspace of the key: its plan, limits, usage and capabilities.',
          },
          ...stdResponses(),
          503: problemResponse('Region degraded or maintenance; Retry-After says when to try again'),
        },
      },
    },
    async (request) => {
      const auth = request.auth!
      const plan = request.plan
      if (!plan) throw new ProblemError('internal_error', `plan ${auth.workspace.plan_id} is missing`)
      const { registries } = container.cradle.plugins
      const capabilities = Object.fromEntries(
        EXTENSION_POINTS.map((point) => [point, registries[point].keys()]),
      )
      // a tool without a route of its own (attach, behind pdf.attachments) is not one to call
      capabilities.pdfTools = routedPdfTools(registries.pdfTools.keys())
      // template inputs are made by a core producer, not an input plugin; clients may still name them
      capabilities.inputs = renderInputTypes(registries.inputs, registries.producers)
      return accountView({
        auth,
        plan,
        usage: await container.cradle.billingService.usageOf(auth.workspace.id, plan),
        capabilities,
      })
    },
  )

  // SPEC 4.10 GET /v1/usage shares the account scope and prefix
  await usageRoutes(app, { container })
}
