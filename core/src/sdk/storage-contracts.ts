import type { Static, TObject } from 'typebox'
import type { PluginLogger } from './define-plugin.ts'
import {
  type ByteSource,
  type FailureKind,
  type ProbeOptions,
  type ProbeReport,
  ProviderFailure,
  type ProviderFailureOptions,
} from './provider-contracts.ts'

// A storage destination (SPEC 2.8, 4.7) is an instance of a provider factory: the factory
// declares its schemas and builds an uploader from a destination's validated config and its
// opened credentials. Core owns the routes, the records, the retries and the sealing.

/** The steps of a destination test, in order (SPEC 4.7: write, read back, delete a small object). */
export const STORAGE_PROBE_STEPS = ['write', 'read', 'delete'] as const

/** Why an upload failed; `kind` says whether to retry. */
export type StorageFailureReason =
  /** credentials refused, or the destination does not grant this writer */
  | 'access_denied'
  /** the bucket, container or folder does not exist */
  | 'not_found'
  /** the object is larger than the destination takes (limits.maxObjectBytes) */
  | 'too_large'
  /** the path breaks the destination's path rules */
  | 'invalid_path'
  /** network, timeouts, 5xx, a mount not up */
  | 'unavailable'
  /** throttled by the provider */
  | 'rate_limited'

export class StorageFailure extends ProviderFailure {
  declare readonly reason: StorageFailureReason

  constructor(
    kind: FailureKind,
    reason: StorageFailureReason,
    message: string,
    options?: ProviderFailureOptions,
  ) {
    super(kind, reason, message, options)
    this.name = 'StorageFailure'
  }
}

/** What a destination takes; core checks a put against it before calling, the provider again. */
export interface StorageLimits {
  /** bytes of one object */
  maxObjectBytes: number
  /** UTF-8 bytes of a whole path */
  maxPathBytes: number
  /** what one path segment may be, beyond the shared rules of checkStoragePut */
  segmentPattern?: RegExp
}

/**
 * The one place for the path and size rules every destination shares: a relative path of
 * non-empty segments, no `.`/`..`, no backslash or control characters, within the provider's
 * limits. Throws a permanent StorageFailure (`invalid_path`, `too_large`).
 */
export function checkStoragePut(limits: StorageLimits, path: string, size: number): void {
  const refuse = (why: string) => {
    throw new StorageFailure('permanent', 'invalid_path', `path ${JSON.stringify(path.slice(0, 200))} ${why}`)
  }
  if (path.length === 0) refuse('is empty')
  if (Buffer.byteLength(path) > limits.maxPathBytes) refuse(`is longer than ${limits.maxPathBytes} bytes`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(path)) refuse('holds a control character or a backslash')
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') refuse('has an empty, "." or ".." segment')
    if (limits.segmentPattern && !limits.segmentPattern.test(segment)) {
      refuse(`has a segment this destination does not take (${JSON.stringify(segment.slice(0, 100))})`)
    }
  }
  if (size > limits.maxObjectBytes) {
    throw new StorageFailure(
      'permanent',
      'too_large',
      `the file has ${size} bytes; this destination takes at most ${limits.maxObjectBytes}`,
    )
  }
}

export interface StoragePutOptions {
  /** aborted on cancel, on the upload's time limit, or when the worker stops */
  signal: AbortSignal
  /** provider-neutral object metadata (the render id, the file index), when the provider keeps any */
  metadata?: Record<string, string>
}

export interface StoredObject {
  /** where it is, in the provider's words (`s3://bucket/key`, a folder path); shown on the upload */
  location: string
  /** a URL to it, when the provider has one */
  url?: string
  /** the provider's version tag of the written object */
  etag?: string
  size: number
}

/** One destination's uploader, built from its settings. */
export interface StorageProvider {
  readonly limits: StorageLimits
  /**
   * Stores the file at `path` (relative, checked with checkStoragePut) with the file's content
   * type, replacing an object already there. Failures are StorageFailures; anything else
   * thrown is treated as transient.
   */
  put(file: ByteSource, path: string, contentType: string, options: StoragePutOptions): Promise<StoredObject>
  /** the destination test: STORAGE_PROBE_STEPS in order (see runProbeSteps); never throws */
  probe(options: ProbeOptions): Promise<ProbeReport>
  /** releases connections; the kernel calls it when the destination changes or the worker stops */
  close?(): Promise<void>
}

export interface StorageProviderContext {
  log: PluginLogger
}

/** What a plugin registers under `storageProviders`: one kind of destination (SPEC 2.8 `provider`). */
export interface StorageProviderFactory<C extends TObject = TObject, K extends TObject = TObject> {
  readonly id: string
  /** a destination's `config` (validated, defaults applied, before create) */
  readonly configSchema: C
  /** a destination's `credentials`: every field made with CredentialField (write-only) */
  readonly credentialsSchema: K
  create(
    settings: { config: Static<C>; credentials: Static<K> },
    ctx: StorageProviderContext,
  ): StorageProvider
}
