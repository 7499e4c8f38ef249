import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { type Static, Type } from 'typebox'
import { problemResponse, stdResponses } from '../http/schemas/problem-schema.ts'
import type { Cradle } from '../kernel/container.ts'
import { BilledRenderCounts } from '../renders/billed-render-counts.ts'
import { GRANULARITIES, GROUP_BYS, MAX_SPAN_DAYS, parseUsageQuery } from './usage-query.ts'
import { usageSeries } from './usage-series.ts'

const UsageQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'Start, inclusive: a UTC date (YYYY-MM-DD) or an ISO 8601 date-time; default the start of the current cycle',
        examples: ['2026-11-01'],
      }),
    ),
    to: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'End: a UTC date (YYYY-MM-DD, inclusive) or an ISO 8601 date-time (exclusive); default the end of the current cycle',
        examples: ['2026-11-30'],
      }),
    ),
    granularity: Type.Optional(
      Type.Enum([...GRANULARITIES], {
        description: `Bucket size, default day; at most ${MAX_SPAN_DAYS.day} days of day buckets or ${MAX_SPAN_DAYS.hour} days of hour buckets`,
        examples: ['hour'],
      }),
    ),
    group_by: Type.Optional(
      Type.Enum([...GROUP_BYS], {
        description: 'Split every bucket by this dimension',
        examples: ['template_id'],
      }),
    ),
  },
  { additionalProperties: false },
)

const UsageGroup = Type.Object(
  { key: Type.Union([Type.String(), Type.Null()]), renders: Type.Integer() },
  { additionalProperties: false },
)

const Usage = Type.Object(
  {
    object: Type.Literal('usage'),
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time' }),
    granularity: Type.Enum([...GRANULARITIES]),
    group_by: Type.Union([Type.Enum([...GROUP_BYS]), Type.Null()]),
    total: Type.Integer(),
    groups: Type.Optional(Type.Array(UsageGroup)),
    series: Type.Array(
      Type.Object(
        {
          start: Type.String({ format: 'date-time' }),
          end: Type.String({ format: 'date-time' }),
          renders: Type.Integer(),
          groups: Type.Optional(Type.Array(UsageGroup)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)

export async function usageRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const billed = new BilledRenderCounts(container.cradle.db)

  app.get<{ Querystring: Static<typeof UsageQuery> }>(
    '/usage',
    {
      config: { scope: 'account:read' },
      schema: {
        tags: ['account'],
        summary: 'Billed renders over time, per day or hour, optionally grouped',
        description:
          'Live renders billed in the window, in UTC buckets, every bucket present. Test renders are free and not counted.',
        querystring: UsageQuery,
        response: {
          200: { ...Usage, description: 'Renders counted per time bucket, optionally split by a dimension.' },
          ...stdResponses(),
          400: problemResponse(
            'Invalid from, to, granularity or group_by, from not before to, or a window too long',
          ),
          503: problemResponse('Region degraded or maintenance; Retry-After says when to try again'),
        },
      },
    },
    async (request) => {
      const workspaceId = request.auth!.workspace.id
      const window = parseUsageQuery(
        request.query,
        await container.cradle.billingService.cycleOf(workspaceId),
      )
      // region is the installation's own (config.region): the series adds it, the count needs no group
      const groupBy = window.groupBy === 'region' ? null : window.groupBy
      const counts = await billed.count(workspaceId, { ...window, groupBy })
      return usageSeries(window, counts, container.cradle.config.region)
    },
  )
}
