import { fastifyAwilixPlugin } from '@fastify/awilix'
import type { AwilixContainer } from 'awilix'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  LogController,
} from 'fastify'
import type { Logger } from 'pino'
import { accountRoutes } from '../account/account-routes.ts'
import { adminRoutes } from '../admin/admin-routes.ts'
import { docsRoutes } from '../docs-site/docs-routes.ts'
import { fileRoutes } from '../files/file-routes.ts'
import { healthRoutes } from '../health/health-routes.ts'
import { idempotencyPlugin } from '../idempotency/idempotency-hooks.ts'
import type { Cradle } from '../kernel/container.ts'
import type { FeatureModule } from '../kernel/feature-module.ts'
import type { BoundHealthcheck } from '../kernel/plugins/plugin-loader.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { convenienceRoutes } from '../renders/convenience-routes.ts'
import { renderRoutes } from '../renders/render-routes.ts'
import './fastify-types.ts'
import { accessGuardPlugin } from './access-guard.ts'
import { allowedMethods } from './allowed-methods.ts'
import { registerJsonBody } from './json-body.ts'
import { registerNulTextGuard } from './nul-text.ts'
import { openApiPlugin } from './openapi.ts'
import { sendProblem, toProblem } from './problem-response.ts'
import { shapeProblem } from './problem-shaping.ts'
import {
  answerTransportEdges,
  clientErrorProblem,
  frameworkErrorHandler,
  requireHostHeader,
  writeRawProblem,
} from './raw-problem.ts'
import { requestIdOf } from './request-id.ts'
import { recordRoutes } from './route-inventory.ts'
import { ProblemSchema } from './schemas/problem-schema.ts'
import { registerValidators } from './validator.ts'

export interface AppOptions {
  container: AwilixContainer<Cradle>
  logger: Logger
  /** extra routes under /v1 (tests exercise cross-cutting behaviour through them) */
  extraV1Routes?: FastifyPluginAsync[]
  /** core features whose routes join the app */
  features?: FeatureModule[]
  /** what GET /readyz runs besides the database and the queue; default the plugins' */
  healthchecks?: BoundHealthcheck[]
}

/** The whole HTTP surface as one Fastify instance; server.ts only listens and closes it. */
export async function buildApp({
  container,
  logger,
  extraV1Routes = [],
  features = [],
  healthchecks = container.cradle.plugins.healthchecks,
}: AppOptions): Promise<FastifyInstance> {
  const { config } = container.cradle
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: requestIdOf,
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    bodyLimit: config.bodyLimitBytes,
    // signed file tokens (/files/:token) run to a few hundred characters; the default cap is 100
    routerOptions: { maxParamLength: 4096 },
    return503OnClosing: true,
    // a missing Host is refused by requireHostHeader below, as problem+json
    http: { requireHostHeader: false },
    frameworkErrors: frameworkErrorHandler(config.docsUrl),
    // malformed HTTP and oversized headers are answered here, before Fastify sees a request
    clientErrorHandler(err, socket) {
      writeRawProblem(socket, clientErrorProblem(err), config.docsUrl)
    },
  })
  answerTransportEdges(app.server, config.docsUrl)
  recordRoutes(app)

  app.decorate('container', container)
  registerValidators(app)
  registerJsonBody(app)
  registerNulTextGuard(app)
  app.addSchema(ProblemSchema)

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id)
    requireHostHeader(request)
  })

  app.setErrorHandler((error, request, reply) => {
    const problem = shapeProblem(toProblem(error), request)
    if (problem.code === 'internal_error') request.log.error({ err: error }, 'request failed')
    else if (problem.extras.internal) {
      // info, not warn: a client's bad JSON is not the operator's problem, but its cause is findable
      request.log.info({ code: problem.code, internal: problem.extras.internal }, 'request refused')
    }
    // a failed render's cause is in the worker's log under its render id; this ties the request to it
    if (problem.extras.render_id) {
      request.log.info({ code: problem.code, render_id: problem.extras.render_id }, 'render failed')
    }
    return sendProblem(request, reply, problem, config.docsUrl)
  })
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    // a path the app serves with other methods is 405 with Allow (RFC 9110 15.5.6), not 404
    const allow = allowedMethods(app.routeInventory, path)
    const problem =
      allow.length > 0
        ? new ProblemError(
            'method_not_allowed',
            `${path} does not take ${request.method}; it takes ${allow.join(', ')}.`,
            {
              headers: { Allow: allow.join(', ') },
            },
          )
        : new ProblemError('not_found', `No route ${request.method} ${path}.`)
    return sendProblem(request, reply, problem, config.docsUrl)
  })

  await app.register(openApiPlugin, {
    config,
    registries: container.cradle.plugins.registries,
    webhooks: Object.assign({}, ...features.map((feature) => feature.openApiWebhooks?.() ?? {})),
  })
  // a request scope per request; the guard puts the caller's auth context into it
  await app.register(fastifyAwilixPlugin, { container, disposeOnClose: false, disposeOnResponse: true })
  await app.register(accessGuardPlugin, container.cradle)
  await app.register(idempotencyPlugin, {
    store: container.cradle.idempotencyStore,
    rebuild: container.cradle.renderReplays.rebuild,
  })

  await app.register(healthRoutes, { container, healthchecks })
  await app.register(docsRoutes)
  await app.register(fileRoutes, { container })
  await app.register(adminRoutes, { container, prefix: '/admin/v1' })
  for (const feature of features) {
    if (feature.rootRoutes) await app.register(feature.rootRoutes, { container })
  }
  await app.register(
    async (v1) => {
      await v1.register(accountRoutes, { container })
      await v1.register(renderRoutes, { container })
      await v1.register(convenienceRoutes, { container })
      for (const feature of features) {
        if (feature.v1Routes) await v1.register(feature.v1Routes, { container })
      }
      for (const routes of extraV1Routes) await v1.register(routes)
    },
    { prefix: '/v1' },
  )
  return app
}

declare module 'fastify' {
  interface FastifyInstance {
    container: AwilixContainer<Cradle>
  }
}
