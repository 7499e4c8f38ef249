import { definePlugin, type FileStore, type PluginManifest } from '@docsvc/core/sdk'
import { createS3FileStore } from './s3-file-store.ts'
import { type S3FileStoreConfig, S3FileStoreConfigSchema } from './s3-file-store-config.ts'

/** The shape core's `fileStores` extension point takes (core/src/files/file-store-factory.ts). */
export interface S3FileStoreFactory {
  readonly id: 's3'
  readonly configured: boolean
  create(): FileStore
}

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

// `fileStores` is not yet an extension point of the kernel: the cast goes once it is
const provides = { fileStores: ['s3'] } as unknown as PluginManifest['provides']

/** Hosted files in an S3-compatible bucket, used when DOCSVC_PLUGIN_FILESTORE_S3_BUCKET is set. */
export const filestoreS3Plugin = definePlugin<S3FileStoreConfig>({
  id: 'filestore-s3',
  apiVersion: '^1',
  provides,
  config: S3FileStoreConfigSchema,
  register({ registries, config }) {
    const fileStores = (registries as unknown as { fileStores?: { add(key: string, value: unknown): void } })
      .fileStores
    if (!fileStores) throw new Error('this docsvc has no fileStores extension point')
    fileStores.add('s3', s3FileStoreFactory(config))
  },
})
