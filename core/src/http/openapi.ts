import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../kernel/config.ts'
import type { Registries } from '../kernel/plugins/extension-points.ts'
import { documentMethodNotAllowed } from './openapi-method-not-allowed.ts'
import { documentProblemCodes } from './openapi-problem-codes.ts'
import { fillPluginSlots } from './plugin-schema-slots.ts'

const REFERENCE_PREFIX = '/v1/reference'

/**
 * The route schemas are the single source: @fastify/swagger builds OpenAPI 3.1 from them,
 * served at /v1/openapi.json, with a readable reference at /v1/reference. The parts plugins
 * validate come from the plugins' registered schemas when the document is first built, after
 * every plugin has registered (plugin-schema-slots.ts).
 */
async function openApi(
  app: FastifyInstance,
  {
    config,
    registries,
    webhooks,
  }: { config: Config; registries: Registries; webhooks: Record<string, unknown> },
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'docsvc API',
        version: '1.0.0',
        description:
          'Document rendering service. Errors are RFC 9457 problem details (application/problem+json).',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'doc_live_... or doc_test_... API key' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    hideUntagged: false,
    transformObject: (built) => {
      const filled = fillPluginSlots(
        'openapiObject' in built ? built.openapiObject : built.swaggerObject,
        registries,
      )
      // the 405 every operation's path answers a wrong method with, before its codes are named
      const document = documentProblemCodes(documentMethodNotAllowed(filled, app.routeInventory))
      // the events the service sends (OpenAPI 3.1 `webhooks`), from the features that send them
      return Object.keys(webhooks).length > 0 ? Object.assign(document, { webhooks }) : document
    },
    // shared schemas appear under their $id (components.schemas.Problem), not as def-0
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  })
  // the reference is published like the document: a browser cannot send an API key for its assets
  app.addHook('onRoute', (route) => {
    if (route.url === REFERENCE_PREFIX || route.url.startsWith(`${REFERENCE_PREFIX}/`))
      route.config = { ...route.config, access: 'public' }
  })
  await app.register(swaggerUi, { routePrefix: REFERENCE_PREFIX, uiConfig: { docExpansion: 'list' } })
  app.get(
    '/v1/openapi.json',
    { schema: { hide: true }, config: { access: 'public' } },
    async (_request, reply) => reply.type('application/json').send(app.swagger()),
  )
}

export const openApiPlugin = fp(openApi, { name: 'docsvc-openapi' })
