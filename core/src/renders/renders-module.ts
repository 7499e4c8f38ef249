import { asValue } from 'awilix'
import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { type InlineWebhookCheck, noWebhookDelivery } from './inline-webhook-check.ts'
import { RenderCompletion } from './render-completion.ts'
import { type RenderFileLinks, SignedRenderFileLinks } from './render-file-links.ts'
import { RenderFiles } from './render-files.ts'
import { RENDER_PLAN_FEATURES } from './render-plan-features.ts'
import { RenderReplays } from './render-replays.ts'
import { RenderRepository } from './render-repository.ts'
import { RenderRunner } from './render-runner.ts'
import { RenderSecretBox } from './render-secrets.ts'
import { RenderService } from './render-service.ts'
import { RenderSweeper } from './render-sweeper.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    /** the renders' tables, for this folder and tests; other features use renderService */
    renderRepository: RenderRepository
    renderService: RenderService
    renderCompletion: RenderCompletion
    renderFileLinks: RenderFileLinks
    renderFiles: RenderFiles
    renderReplays: RenderReplays
    renderRunner: RenderRunner
    renderSecretBox: RenderSecretBox
    renderSweeper: RenderSweeper
    /** whether a render's own webhook can be delivered (the webhooks feature replaces the stand-in) */
    inlineWebhookCheck: InlineWebhookCheck
  }
}

/**
 * The render pipeline's services: records, files, the runner and the sweeper. Renders that are
 * not "an input, then an output" come from the producers other features register
 * (`registries.producers`).
 */
export const rendersModule: FeatureModule = {
  id: 'renders',
  provides: { planFeatures: Object.keys(RENDER_PLAN_FEATURES) },
  register({ container, registries }) {
    for (const [key, feature] of Object.entries(RENDER_PLAN_FEATURES))
      registries.planFeatures.add(key, feature)
    container.register({
      // the webhooks feature, loaded after the platform's, registers its own check over this one
      inlineWebhookCheck: asValue(noWebhookDelivery),
      ...singletons({
        renderRepository: RenderRepository,
        renderService: RenderService,
        renderCompletion: RenderCompletion,
        renderFileLinks: SignedRenderFileLinks,
        renderFiles: RenderFiles,
        renderReplays: RenderReplays,
        renderRunner: RenderRunner,
        renderSecretBox: RenderSecretBox,
        renderSweeper: RenderSweeper,
      }),
    })
  },
}
