export { filestoreS3Plugin, type S3FileStoreFactory, s3FileStoreFactory } from './filestore-s3-plugin.ts'
export { createS3FileStore, S3FileStore, type S3FileStoreOptions } from './s3-file-store.ts'
export { type S3FileStoreConfig, S3FileStoreConfigSchema } from './s3-file-store-config.ts'
