import { Type } from 'typebox'
import { documentedBy } from '../http/plugin-schema-slots.ts'
import { problemResponse, stdResponses } from '../http/schemas/problem-schema.ts'
import {
  DEFAULT_PATH_TEMPLATE,
  MAX_PATH_TEMPLATE_LENGTH,
  PATH_PLACEHOLDERS,
} from './storage-path-template.ts'

const placeholderList = Object.entries(PATH_PLACEHOLDERS)
  .map(([name, what]) => `\`{{ ${name} }}\` (${what})`)
  .join(', ')

const destinationFields = {
  name: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'A label for people.',
    examples: ['Invoices archive'],
  }),
  provider: documentedBy(
    { of: 'storage-providers' },
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'The kind of storage: `object_store`, `object_store_compatible`, or another kind a storage plugin of this installation adds. Cannot change after creation.',
      examples: ['object_store'],
    }),
  ),
  config: documentedBy(
    { of: 'storage-settings', part: 'configSchema' },
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "The provider's settings (bucket, region, endpoint...), checked by the provider's schema. A PATCH replaces it whole.",
        examples: [{ bucket: 'acme-invoices', region: 'eu-central-1' }],
      },
    ),
  ),
  credentials: documentedBy(
    { of: 'storage-settings', part: 'credentialsSchema' },
    Type.Object(
      {},
      {
        additionalProperties: true,
        writeOnly: true,
        description:
          'Write-only: never returned (reads show `configured: true`), stored encrypted. A PATCH sends it only to replace it, whole.',
        examples: [
          {
            access_key_id: 'AKIAIOSFODNN7EXAMPLE',
            secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
          },
        ],
      },
    ),
  ),
  is_default: Type.Boolean({
    description:
      'Receives the files of renders that name no destination; one per workspace, so setting it clears it on the previous default.',
    examples: [true],
  }),
  keep_hosted_copy: Type.Boolean({
    description: 'Keep the hosted copy of files after they are uploaded here (default true).',
    examples: [false],
  }),
  path_template: Type.String({
    minLength: 1,
    maxLength: MAX_PATH_TEMPLATE_LENGTH,
    description: `Where each file goes, relative to the bucket or folder. Placeholders: ${placeholderList}. It must use \`{{ file.index }}\` or \`{{ file.name }}\`, be relative, and have no empty, \`.\` or \`..\` segment, backslash or control character; values are made safe (a \`/\` in a reference becomes \`_\`). Default \`${DEFAULT_PATH_TEMPLATE}\`.`,
    examples: [
      'invoices/{{ date.year }}/{{ date.month }}/{{ render.reference }}-{{ file.index }}.{{ file.ext }}',
    ],
  }),
}

/** StorageDestinationWrite (SPEC 2.8) */
export const CreateDestinationBody = Type.Object(
  {
    name: destinationFields.name,
    provider: destinationFields.provider,
    config: destinationFields.config,
    credentials: destinationFields.credentials,
    is_default: Type.Optional(destinationFields.is_default),
    keep_hosted_copy: Type.Optional(destinationFields.keep_hosted_copy),
    path_template: Type.Optional(destinationFields.path_template),
  },
  { additionalProperties: false },
)

/** any field; `provider` only with its current value (immutable) */
export const PatchDestinationBody = Type.Partial(Type.Object(destinationFields), {
  additionalProperties: false,
})

export const DestinationParams = Type.Object({
  destination_id: Type.String({
    maxLength: 100,
    description: 'The storage destination (dst_...).',
    examples: ['dst_01kaz3u0v2w4x6y8z0a2b4c6de'],
  }),
})

export const DestinationRecord = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'The storage destination: `id`, `object` (`storage_destination`), `name`, `provider`, `config`, `credentials` (`{"configured": true}`, never the values), `is_default`, `keep_hosted_copy`, `path_template`, `last_test` (the last test result or null), `created_at`, `updated_at`.',
  },
)
export const DestinationList = Type.Object(
  {},
  { additionalProperties: true, description: 'Every storage destination of the workspace, in one page.' },
)
export const TestResult = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      '`ok`, `tested_at` and `steps[]`: `write`, `read`, `delete` in order, each with `ok`; a failed step has a stable `code` (`access_denied`, `bucket_not_found`, `write_denied`, `dns_failure`, `connection_refused`, `tls_error`, `timeout`, `address_not_allowed`, `unavailable`...) and a `message`; the steps after it have `skipped: true`.',
  },
)

const PROBLEMS: Record<number, string> = {
  400: 'Invalid destination: `errors[]` lists each problem with its JSON pointer',
  402: 'Storage destinations are not in the plan (`plan_feature_unavailable`)',
  404: 'No such storage destination in this workspace',
  409: "The destination's provider is no longer installed",
  503: 'Control plane unreachable; Retry-After says when to try again',
}

/** Success responses, STD, CP (503) and the listed problems (SPEC 4.1, 4.7). */
export function storageResponses(success: Record<number, unknown>, problems: number[] = []) {
  return {
    ...success,
    ...stdResponses(),
    ...Object.fromEntries([...problems, 503].map((s) => [s, problemResponse(PROBLEMS[s] ?? 'Problem')])),
  }
}
