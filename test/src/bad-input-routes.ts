import type { FastifyPluginAsync } from 'fastify'

/** The body the probe accepts; every other shape is a client error with pointers. */
export const ProbeBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    count: { type: 'integer', minimum: 0, maximum: 1000 },
    ratio: { type: 'number' },
    active: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20 },
    options: {
      type: 'object',
      additionalProperties: false,
      properties: { mode: { type: 'string', enum: ['fast', 'exact'] }, depth: { type: 'integer' } },
    },
  },
} as const

/** Fields with a value of the wrong JSON type each, for the `wrong types` cases. */
export const PROBE_FIELD_TYPES: Record<
  string,
  'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object'
> = {
  name: 'string',
  count: 'integer',
  ratio: 'number',
  active: 'boolean',
  tags: 'array',
  options: 'object',
}

const ItemId = {
  type: 'object',
  required: ['item_id'],
  properties: { item_id: { type: 'string', pattern: '^itm_[a-z0-9]{1,24}$' } },
} as const

const ListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    order: { type: 'string', enum: ['asc', 'desc'] },
    q: { type: 'string', maxLength: 200 },
  },
} as const

/** Stand-ins for real /v1 endpoints: a JSON POST with a body schema and a GET with a query. */
export const badInputRoutes: FastifyPluginAsync = async (v1) => {
  v1.post(
    '/probe/:item_id',
    { config: { scope: 'render:write' }, schema: { params: ItemId, body: ProbeBody } },
    async (request, reply) =>
      reply.code(201).send({ ok: true, item_id: (request.params as { item_id: string }).item_id }),
  )
  // answers after a pause, so a client's early half-close meets a request still being worked on
  v1.get('/probe/slow', { config: { scope: 'render:write' } }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 50))
    return { ok: true }
  })
  v1.get(
    '/probe',
    { config: { scope: 'render:write' }, schema: { querystring: ListQuery } },
    async (request) => ({ ok: true, query: request.query }),
  )
}
