import type { StorageClass } from '@aws-sdk/client-s3'
import { definePlugin, type OutboundGuardApi, type StorageProviderFactory } from '@docsvc/core/sdk'
import { s3Addressing } from './s3-addressing.ts'
import {
  CompatibleConfigSchema,
  type ObjectStoreConfig,
  ObjectStoreConfigSchema,
  type S3Credentials,
  S3CredentialsSchema,
  type S3Kind,
} from './s3-storage-config.ts'
import { S3StorageProvider } from './s3-storage-provider.ts'

/**
 * The factory of one S3 kind. Connections go through `guard` (the installation's outbound
 * guard, lent to the plugin at register time), so a destination cannot reach an address the
 * operator has not allowed.
 */
export function s3StorageFactory(kind: S3Kind, guard: OutboundGuardApi): StorageProviderFactory {
  return {
    id: kind,
    configSchema: kind === 'object_store' ? ObjectStoreConfigSchema : CompatibleConfigSchema,
    credentialsSchema: S3CredentialsSchema,
    create({ config, credentials }) {
      const storageClass = (config as ObjectStoreConfig).storage_class as StorageClass | undefined
      return new S3StorageProvider({
        bucket: config.bucket as string,
        addressing: s3Addressing(kind, config as ObjectStoreConfig),
        credentials: credentials as S3Credentials,
        ...(storageClass ? { storageClass } : {}),
        guard,
      })
    },
  }
}

/** Storage destinations of kinds `object_store` and `object_store_compatible` (SPEC 2.8). */
export const storageS3Plugin = definePlugin({
  id: 'storage-s3',
  apiVersion: '^1',
  provides: { storageProviders: ['object_store', 'object_store_compatible'] },
  register({ registries, host }) {
    registries.storageProviders.add('object_store', s3StorageFactory('object_store', host.guard))
    registries.storageProviders.add(
      'object_store_compatible',
      s3StorageFactory('object_store_compatible', host.guard),
    )
  },
})
