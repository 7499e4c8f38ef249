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
  id: 'uploads',
  register({ container }) {
    container.register(
      singletons({
        uploadRepository: UploadRepository,
        uploadService: UploadService,
        uploadSweeper: UploadSweeper,
      }),
    )
  },
  v1Routes: uploadRoutes,
  // the sweeper runs where jobs run: an API-only process leaves expired uploads to a worker
  start({ cradle, roles }) {
    if (roles.includes('worker')) cradle.uploadSweeper.start()
  },
  stop: ({ cradle }) => cradle.uploadSweeper.stop(),
}
