import { asClass, Lifetime } from 'awilix'
import type { FeatureModule } from '../kernel/feature-module.ts'
import { UploadRepository } from './upload-repository.ts'
import { uploadRoutes } from './upload-routes.ts'
import { UploadService } from './upload-service.ts'
import { UploadSweeper } from './upload-sweeper.ts'
import './upload.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    uploadRepository: UploadRepository
    uploadService: UploadService
    uploadSweeper: UploadSweeper
  }
}

const singleton = { lifetime: Lifetime.SINGLETON }

/** Uploads (SPEC 2.15, 4.9): files for PDF tool sources and batch CSVs, kept 24 hours. */
export const uploadsModule: FeatureModule = {
  name: 'uploads',
  register(container) {
    container.register({
      uploadRepository: asClass(UploadRepository, singleton),
      uploadService: asClass(UploadService, singleton),
      uploadSweeper: asClass(UploadSweeper, singleton),
    })
  },
  v1Routes: uploadRoutes,
  startWorker: async (cradle) => cradle.uploadSweeper.start(),
}
