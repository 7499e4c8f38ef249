import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { PreviewRenders } from './preview-renders.ts'
import { previewRoutes } from './preview-routes.ts'
import { PreviewSources } from './preview-source.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    previewSources: PreviewSources
    previewRenders: PreviewRenders
  }
}

/** SPEC 4.10 previews of templates and inline content (needs the templates module). */
export const previewsModule: FeatureModule = {
  id: 'previews',
  register({ container }) {
    container.register(
      singletons({
        previewSources: PreviewSources,
        previewRenders: PreviewRenders,
      }),
    )
  },
  v1Routes: previewRoutes,
}
