import { asClass, Lifetime } from 'awilix'
import type { FeatureModule } from '../kernel/feature-module.ts'
import { PreviewRenders } from './preview-renders.ts'
import { previewRoutes } from './preview-routes.ts'
import { PreviewSources } from './preview-source.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    previewSources: PreviewSources
    previewRenders: PreviewRenders
  }
}

const singleton = { lifetime: Lifetime.SINGLETON }

/** SPEC 4.10 previews of templates and inline content (needs the templates module). */
export const previewsModule: FeatureModule = {
  name: 'previews',
  register(container) {
    container.register({
      previewSources: asClass(PreviewSources, singleton),
      previewRenders: asClass(PreviewRenders, singleton),
    })
  },
  v1Routes: previewRoutes,
}
