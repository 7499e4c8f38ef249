import { type FeatureModule, producerOf, singletons } from '../kernel/feature-module.ts'
import { PLAN_FEATURE_TITLES } from '../plans/plan.ts'
import type { PlanFeature } from '../sdk/plan-feature-contracts.ts'
import { EinvoiceProducer } from './einvoice-producer.ts'
import { EINVOICE_INPUT } from './einvoice-request.ts'
import { einvoiceRoutes } from './einvoice-routes.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    einvoiceProducer: EinvoiceProducer
  }
}

/**
 * SPEC 7.3: e-invoicing below Growth is 402 plan_feature_unavailable. A render asks for it by
 * being an e-invoice render, or by embedding one in its PDF (`output.einvoice`).
 */
export const EINVOICE_PLAN_FEATURE: PlanFeature = {
  title: PLAN_FEATURE_TITLES.einvoice,
  usedBy: (request) => {
    if (request.input.type === EINVOICE_INPUT) return 'POST /v1/einvoices'
    return request.output.einvoice != null ? 'output.einvoice' : undefined
  },
  skipWarning: 'einvoice_skipped_plan',
}

/** E-invoice XML (SPEC 4.3): the route, the `einvoice` producer, the `einvoice` plan feature. */
export const einvoicesModule: FeatureModule = {
  id: 'einvoice-renders',
  provides: { producers: [EINVOICE_INPUT], planFeatures: ['einvoice'] },
  register({ container, registries }) {
    container.register(singletons({ einvoiceProducer: EinvoiceProducer }))
    registries.planFeatures.add('einvoice', EINVOICE_PLAN_FEATURE)
    // the profile, not an output plugin, writes the one XML file
    registries.producers.add(
      EINVOICE_INPUT,
      producerOf(container, { inputType: EINVOICE_INPUT, ownsOutput: true }, (c) => c.einvoiceProducer),
    )
  },
  v1Routes: einvoiceRoutes,
}
