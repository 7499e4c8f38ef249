import { definePlugin, type FileStoreFactory } from '@docsvc/core/sdk'
import { createS3FileStore } from './s3-file-store.ts'
import { type S3FileStoreConfig, S3FileStoreConfigSchema } from './s3-file-store-config.ts'

export type S3FileStoreFactory = FileStoreFactory & { readonly id: 's3' }

export function s3FileStoreFactory(config: S3FileStoreConfig): S3FileStoreFactory {
  if (Boolean(config.accessKeyId) !== Boolean(config.secretAccessKey)) {
    throw new Error(
      'set both DOCSVC_PLUGIN_FILESTORE_S3_ACCESS_KEY_ID and DOCSVC_PLUGIN_FILESTORE_S3_SECRET_ACCESS_KEY, or neither',
    )
  }
  return {
    id: 's3',
    configured: config.bucket !== '',
    create: () =>
      createS3FileStore({
        bucket: config.bucket,
        endpoint: config.endpoint,
        region: config.region,
        accessKeyId: config.accessKeyId,
        secretAccessKey: config.secretAccessKey,
        forcePathStyle: config.forcePathStyle,
        prefix: config.prefix,
      }),
  }
}

/** Hosted files in an S3-compatible bucket, used when DOCSVC_PLUGIN_FILESTORE_S3_BUCKET is set. */
export const filestoreS3Plugin = definePlugin<S3FileStoreConfig>({
  id: 'filestore-s3',
  apiVersion: '^1',
  provides: { fileStores: ['s3'] },
  config: S3FileStoreConfigSchema,
  register({ registries, config }) {
    registries.fileStores.add('s3', s3FileStoreFactory(config))
  },
})
