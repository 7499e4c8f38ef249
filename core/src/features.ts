import { einvoicesModule } from './einvoices/einvoices-module.ts'
import type { FeatureModule } from './kernel/feature-module.ts'
import { pdfToolsModule } from './pdf-tools/pdf-tools-module.ts'
import { previewsModule } from './previews/previews-module.ts'
import { storageModule } from './storage/storage-module.ts'
import { templatesModule } from './templates/templates-module.ts'
import { uploadsModule } from './uploads/uploads-module.ts'
import { webhooksModule } from './webhooks/webhooks-module.ts'

/** The core features beyond the render pipeline, listed explicitly (no folder scanning). */
export const FEATURE_MODULES: FeatureModule[] = [
  templatesModule,
  previewsModule,
  webhooksModule,
  uploadsModule,
  pdfToolsModule,
  einvoicesModule,
  storageModule,
]
