import { type Static, Type } from 'typebox'

/** The plugin's config; env names derive from it: DOCSVC_PLUGIN_FILESTORE_S3_BUCKET, ... */
export const S3FileStoreConfigSchema = Type.Object({
  bucket: Type.String({
    default: '',
    description: 'bucket of hosted render files; empty keeps them on local disk',
  }),
  endpoint: Type.String({ default: '', description: 'S3-compatible endpoint URL; empty for AWS' }),
  region: Type.String({ default: 'us-east-1' }),
  accessKeyId: Type.String({
    default: '',
    description: "empty: the AWS SDK's default credential chain (env, web identity, instance role)",
  }),
  secretAccessKey: Type.String({ default: '', secret: true }),
  forcePathStyle: Type.Boolean({
    default: false,
    description: 'path-style URLs; most S3-compatible servers need it',
  }),
  prefix: Type.String({ default: '', description: 'key prefix inside the bucket' }),
})

export type S3FileStoreConfig = Static<typeof S3FileStoreConfigSchema>
