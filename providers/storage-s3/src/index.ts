export { mustUsePathStyle, type S3Addressing, s3Addressing } from './s3-addressing.ts'
export {
  CompatibleConfigSchema,
  ObjectStoreConfigSchema,
  S3CredentialsSchema,
  STORAGE_CLASSES,
} from './s3-storage-config.ts'
export { MULTIPART_THRESHOLD, S3StorageProvider } from './s3-storage-provider.ts'
export { s3StorageFactory, storageS3Plugin } from './storage-s3-plugin.ts'
