import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { PdfSources } from './pdf-sources.ts'
import { PdfToolProducer } from './pdf-tool-producer.ts'
import { pdfToolRoutes } from './pdf-tool-routes.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    pdfSources: PdfSources
  }
}

/** PDF tools (SPEC 4.4): merge, metadata, protect, rotate, split, unlock as `pdf_tool` renders. */
export const pdfToolsModule: FeatureModule = {
  id: 'pdf-tools',
  register(container) {
    container.register(singletons({ pdfSources: PdfSources }))
  },
  v1Routes: pdfToolRoutes,
  producers: (cradle) => [new PdfToolProducer(cradle)],
}
