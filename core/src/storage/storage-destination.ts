import type { Selectable } from 'kysely'
import { fromJson } from '../db/json-columns.ts'
import type { StorageDestinationTable } from './storage-tables.ts'

/** One step of a destination test as clients read it (SPEC 4.7 `steps[]`). */
export interface StorageTestStep {
  /** `write`, `read`, `delete`: what was checked, in that order */
  name: string
  ok: boolean
  /** why a failed step failed, a stable word (`bucket_not_found`, `access_denied`, `timeout`...) */
  code?: string
  /** what was found, or what to change */
  message?: string
  /** not run because an earlier step failed */
  skipped?: boolean
}

/** The result of `POST /v1/storage-destinations/{id}/test`, kept as the destination's `last_test`. */
export interface StorageTestResult {
  ok: boolean
  steps: StorageTestStep[]
  tested_at: string
}

/** A storage destination (SPEC 2.8) as the service works with it; credentials stay sealed. */
export interface StorageDestination {
  id: string
  workspace_id: string
  name: string
  provider: string
  config: Record<string, unknown>
  /** sealed JSON object */
  credentials: string
  is_default: boolean
  keep_hosted_copy: boolean
  path_template: string
  last_test: StorageTestResult | null
  created_at: string
  updated_at: string
}

export function destinationFromRow(row: Selectable<StorageDestinationTable>): StorageDestination {
  return {
    ...row,
    config: fromJson<Record<string, unknown>>(row.config, {}),
    is_default: row.is_default === 1,
    keep_hosted_copy: row.keep_hosted_copy === 1,
    last_test: fromJson<StorageTestResult | null>(row.last_test, null),
  }
}

/** The destination as clients read it: credentials only as `configured: true` (SPEC 2.2, 2.8). */
export function destinationView(destination: StorageDestination) {
  return {
    id: destination.id,
    object: 'storage_destination' as const,
    name: destination.name,
    provider: destination.provider,
    config: destination.config,
    credentials: { configured: true as const },
    is_default: destination.is_default,
    keep_hosted_copy: destination.keep_hosted_copy,
    path_template: destination.path_template,
    last_test: destination.last_test,
    created_at: destination.created_at,
    updated_at: destination.updated_at,
  }
}
