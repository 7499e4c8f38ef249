// The storage destinations table of migration 0013, joined to the Database type (ISO-8601 text
// times, 0/1 flags, JSON as text).

export interface StorageDestinationTable {
  id: string
  workspace_id: string
  name: string
  /** a registered storage provider's kind (`object_store`, ...); never changes */
  provider: string
  /** JSON object, validated by the provider's config schema */
  config: string
  /** JSON object of the credentials, sealed with the installation's secret key */
  credentials: string
  is_default: number
  keep_hosted_copy: number
  path_template: string
  /** JSON of the last `POST .../test` result, or null */
  last_test: string | null
  created_at: string
  updated_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    storage_destinations: StorageDestinationTable
  }
}
