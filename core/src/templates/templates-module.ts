import { type FeatureModule, producerOf, singletons } from '../kernel/feature-module.ts'
import { DatasetRepository } from './dataset-repository.ts'
import { datasetRoutes } from './dataset-routes.ts'
import { TemplateProducer } from './template-producer.ts'
import { TemplatePublisher } from './template-publisher.ts'
import { TemplateRenders } from './template-renders.ts'
import { TemplateRepository } from './template-repository.ts'
import { templateRoutes } from './template-routes.ts'
import { TemplateService } from './template-service.ts'
import { TemplateTrash } from './template-trash.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    templateProducer: TemplateProducer
    templateRepository: TemplateRepository
    datasetRepository: DatasetRepository
    templateService: TemplateService
    templatePublisher: TemplatePublisher
    templateRenders: TemplateRenders
    templateTrash: TemplateTrash
  }
}

/** Templates (SPEC 2.6, 4.9): records, drafts, versions, datasets, and template renders. */
export const templatesModule: FeatureModule = {
  id: 'templates',
  provides: { producers: ['template'] },
  register({ container, registries }) {
    container.register(
      singletons({
        templateProducer: TemplateProducer,
        templateRepository: TemplateRepository,
        datasetRepository: DatasetRepository,
        templateService: TemplateService,
        templatePublisher: TemplatePublisher,
        templateRenders: TemplateRenders,
        templateTrash: TemplateTrash,
      }),
    )
    registries.producers.add(
      'template',
      // clients name it in POST /v1/renders (`input.type: template`), unlike pdf_tool
      producerOf(container, { inputType: 'template', requestable: true }, (c) => c.templateProducer),
    )
  },
  async v1Routes(app, options) {
    await templateRoutes(app, options)
    await datasetRoutes(app, options)
  },
  // the trash is emptied where jobs run: an API-only process leaves it to a worker
  start({ cradle, roles }) {
    if (roles.includes('worker')) cradle.templateTrash.start()
  },
  stop: ({ cradle }) => cradle.templateTrash.stop(),
}
