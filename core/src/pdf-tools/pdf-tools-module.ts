import { type FeatureModule, producerOf, singletons } from '../kernel/feature-module.ts'
import { PdfSources } from './pdf-sources.ts'
import { PdfToolProducer } from './pdf-tool-producer.ts'
import { PDF_TOOL_INPUT } from './pdf-tool-request.ts'
import { pdfToolRoutes } from './pdf-tool-routes.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    pdfSources: PdfSources
    pdfToolProducer: PdfToolProducer
  }
}

/** PDF tools (SPEC 4.4): merge, metadata, protect, rotate, split, unlock as `pdf_tool` renders. */
export const pdfToolsModule: FeatureModule = {
  id: 'pdf-tool-renders',
  provides: { producers: [PDF_TOOL_INPUT] },
  register({ container, registries }) {
    container.register(singletons({ pdfSources: PdfSources, pdfToolProducer: PdfToolProducer }))
    // the producer, not an output plugin, decides the format (a zip of split parts)
    const shape = { inputType: PDF_TOOL_INPUT, ownsOutput: true }
    registries.producers.add(
      PDF_TOOL_INPUT,
      producerOf(container, shape, (c) => c.pdfToolProducer),
    )
  },
  v1Routes: pdfToolRoutes,
}
