import { CredentialField } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'

// The settings of the two S3 kinds (SPEC 2.8): `object_store` (the cloud's own object store,
// addressed by region) and `object_store_compatible` (any server that speaks the S3 API,
// addressed by endpoint). Their schemas are what the API checks `config` and `credentials` with.

/** SPEC 2.8: the classes objects may be written in; deep-archive classes are refused (not in the list). */
export const STORAGE_CLASSES = [
  'STANDARD',
  'STANDARD_IA',
  'ONEZONE_IA',
  'INTELLIGENT_TIERING',
  'GLACIER_IR',
] as const

const bucket = Type.String({
  minLength: 3,
  maxLength: 63,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]$',
  description:
    'The bucket. Names with dots, underscores or capitals are always addressed path style (the bucket in the path).',
  examples: ['acme-invoices'],
})
const region = Type.String({
  minLength: 2,
  maxLength: 40,
  pattern: '^[a-z0-9][a-z0-9-]*[a-z0-9]$',
  description: "The bucket's region.",
  examples: ['eu-central-1'],
})
const ENDPOINT_DESCRIPTION =
  "The server, as `https://host[:port]` (no path). Connections go through the installation's address guard: private and local addresses only where the operator allows them."
const endpointField = (description: string) =>
  Type.String({
    maxLength: 2048,
    pattern: '^https?://[^/?#@\\s]+/?$',
    description,
    examples: ['https://s3.eu-central-1.example.com'],
  })

const forcePathStyle = (defaultText: string) =>
  Type.Boolean({
    description: `true puts the bucket in the path, false in the host name; omitted means ${defaultText}. Bucket names with dots, underscores or capitals, and IP-address endpoints, always use path style.`,
    examples: [true],
  })

export const ObjectStoreConfigSchema = Type.Object(
  {
    bucket,
    region,
    endpoint: Type.Optional(
      endpointField(`${ENDPOINT_DESCRIPTION} Omitted: the region's standard endpoint.`),
    ),
    force_path_style: Type.Optional(forcePathStyle('false')),
    storage_class: Type.Optional(
      Type.Union(
        STORAGE_CLASSES.map((c) => Type.Literal(c)),
        {
          description:
            'The class every uploaded object (and the test object) is written in; omitted means the bucket default. Deep-archive classes are not allowed: files there cannot be read back in time.',
          examples: ['STANDARD_IA'],
        },
      ),
    ),
  },
  { additionalProperties: false },
)

export const CompatibleConfigSchema = Type.Object(
  {
    bucket,
    endpoint: endpointField(ENDPOINT_DESCRIPTION),
    region: Type.Optional({
      ...region,
      description: 'The region the server expects in signatures; omitted means us-east-1.',
      examples: ['us-east-1'],
    }),
    force_path_style: Type.Optional(forcePathStyle('true')),
  },
  { additionalProperties: false },
)

export const S3CredentialsSchema = Type.Object(
  {
    access_key_id: {
      ...CredentialField({ maxLength: 256, description: 'The access key id.' }),
      examples: ['AKIAIOSFODNN7EXAMPLE'],
    },
    secret_access_key: {
      ...CredentialField({ maxLength: 256, description: 'The secret access key.' }),
      examples: ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    },
  },
  { additionalProperties: false },
)

export type ObjectStoreConfig = Static<typeof ObjectStoreConfigSchema>
export type CompatibleConfig = Static<typeof CompatibleConfigSchema>
export type S3Credentials = Static<typeof S3CredentialsSchema>
export type S3Kind = 'object_store' | 'object_store_compatible'
