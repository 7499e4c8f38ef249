import { asFunction, Lifetime } from 'awilix'
import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { inlineWebhookSignerCheck } from './inline-webhook-signer.ts'
import { webhookAdminRoutes } from './webhook-admin-routes.ts'
import { WebhookDeliverer } from './webhook-deliverer.ts'
import { WebhookDeliveryRepository } from './webhook-delivery-repository.ts'
import { webhookDeliveryRoutes } from './webhook-delivery-routes.ts'
import { WebhookDeliveryService } from './webhook-delivery-service.ts'
import { WebhookDispatcher } from './webhook-dispatcher.ts'
import { WebhookEndpointRepository } from './webhook-endpoint-repository.ts'
import { webhookEndpointRoutes } from './webhook-endpoint-routes.ts'
import { WebhookEndpointService } from './webhook-endpoint-service.ts'
import { webhookOperations } from './webhook-openapi.ts'
import { WebhookScheduler } from './webhook-scheduler.ts'
import { WebhookSecretBox } from './webhook-secrets.ts'
import { type WebhookSettings, webhookSettingsFor } from './webhook-settings.ts'
import { WebhookSigningKeys } from './webhook-signing-keys.ts'
import { WebhookWorker } from './webhook-worker.ts'
import './webhook-tables.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    webhookSettings: WebhookSettings
    webhookSecretBox: WebhookSecretBox
    webhookSigningKeys: WebhookSigningKeys
    webhookEndpointRepository: WebhookEndpointRepository
    webhookDeliveryRepository: WebhookDeliveryRepository
    webhookScheduler: WebhookScheduler
    webhookDispatcher: WebhookDispatcher
    webhookDeliverer: WebhookDeliverer
    webhookEndpointService: WebhookEndpointService
    webhookDeliveryService: WebhookDeliveryService
    webhookWorker: WebhookWorker
  }
}

/** Webhooks and events (SPEC 2.12-2.14, 4.11, Part 6). */
export const webhooksModule: FeatureModule = {
  id: 'webhooks',
  openApiWebhooks: webhookOperations,
  register({ container }) {
    container.register({
      // one object per container: tests replace its clock and timings in place
      webhookSettings: asFunction(({ config }) => webhookSettingsFor(config), {
        lifetime: Lifetime.SINGLETON,
      }),
      // replaces the kernel's stand-in: a render's own webhook needs the default endpoint to sign
      inlineWebhookCheck: asFunction(
        ({ webhookSigningKeys }) => inlineWebhookSignerCheck(webhookSigningKeys),
        {
          lifetime: Lifetime.SINGLETON,
        },
      ),
      ...singletons({
        webhookSecretBox: WebhookSecretBox,
        webhookSigningKeys: WebhookSigningKeys,
        webhookEndpointRepository: WebhookEndpointRepository,
        webhookDeliveryRepository: WebhookDeliveryRepository,
        webhookScheduler: WebhookScheduler,
        webhookDispatcher: WebhookDispatcher,
        webhookDeliverer: WebhookDeliverer,
        webhookEndpointService: WebhookEndpointService,
        webhookDeliveryService: WebhookDeliveryService,
        webhookWorker: WebhookWorker,
      }),
    })
  },
  async v1Routes(app, options) {
    await app.register(webhookEndpointRoutes, options)
    await app.register(webhookDeliveryRoutes, options)
  },
  rootRoutes: webhookAdminRoutes,
  // deliveries go out where jobs run: an API-only process leaves them to a worker
  async start({ cradle, roles }) {
    if (roles.includes('worker')) await cradle.webhookWorker.start()
  },
  stop: ({ cradle }) => cradle.webhookWorker.stop(),
}
