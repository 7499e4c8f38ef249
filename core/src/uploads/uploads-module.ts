import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
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

/** Uploads (SPEC 2.15, 4.9): files for PDF tool sources and batch CSVs, kept 24 hours. */
export const uploadsModule: FeatureModule = {
  name: 'uploads',
  register(container) {
    container.register(
      singletons({
        uploadRepository: UploadRepository,
        uploadService: UploadService,
        uploadSweeper: UploadSweeper,
      }),
    )
  },
  v1Routes: uploadRoutes,
  startWorker: async (cradle) => cradle.uploadSweeper.start(),
}
