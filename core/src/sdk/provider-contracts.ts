import { readFile } from 'node:fs/promises'
import { type TObject, type TSchema, Type } from 'typebox'

// What storage and email providers share: write-only credentials, byte sources, classified
// failures and the stepwise probe behind `POST .../test` (SPEC 4.7, 4.8).

/** Whether trying the same call again later can succeed (SPEC 7.2's split, for providers). */
export type FailureKind = 'transient' | 'permanent'

/**
 * A provider call that failed, classified for the retry policy: `transient` (network, 5xx,
 * throttling, a mount not up) is retried with backoff, `permanent` (refused credentials, a
 * missing bucket, an object over the limit) fails the upload or send for good. `reason` is a
 * short snake_case word the kernel records; `message` is shown to the tenant and must never
 * contain a credential.
 */
export class ProviderFailure extends Error {
  readonly kind: FailureKind
  readonly reason: string
  /**
   * A finer stable word than `reason` for a probe step (`bucket_not_found`, `dns_failure`,
   * `tls_error`); `reason` when the provider gives none.
   */
  readonly code: string

  constructor(kind: FailureKind, reason: string, message: string, options?: ProviderFailureOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ProviderFailure'
    this.kind = kind
    this.reason = reason
    this.code = options?.code ?? reason
  }
}

export interface ProviderFailureOptions {
  cause?: unknown
  /** see ProviderFailure.code */
  code?: string
}

export function isProviderFailure(error: unknown): error is ProviderFailure {
  return error instanceof ProviderFailure
}

/**
 * One credential field: write-only (the API never returns it; reads show `configured: true`),
 * secret (config printing masks it) and sealed at rest with the installation key.
 */
export function CredentialField(
  options: { description?: string; minLength?: number; maxLength?: number } = {},
) {
  return Type.String({ minLength: 1, maxLength: 4096, ...options, writeOnly: true, secret: true })
}

/** The names of a credentials schema's fields that are not marked write-only (should be none). */
export function readableCredentialFields(schema: TObject): string[] {
  return Object.entries(schema.properties as Record<string, TSchema & { writeOnly?: boolean }>)
    .filter(([, field]) => field.writeOnly !== true)
    .map(([name]) => name)
}

/** Bytes in memory, or a file on this worker's disk with its size (not read until needed). */
export type ByteSource = { bytes: Buffer } | { path: string; size: number }

export function sourceSize(source: ByteSource): number {
  return 'bytes' in source ? source.bytes.length : source.size
}

export function sourceBytes(source: ByteSource): Promise<Buffer> {
  return 'bytes' in source ? Promise.resolve(source.bytes) : readFile(source.path)
}

/** One check of a provider test, as `steps[]` shows it. */
export interface ProbeStep {
  name: string
  ok: boolean
  /** why the step failed, a stable snake_case word clients branch on (ProviderFailure.code) */
  code?: string
  /** what failed or what was found; never a credential */
  detail?: string
  /** not run because an earlier step failed */
  skipped?: boolean
}

export interface ProbeReport {
  ok: boolean
  steps: ProbeStep[]
}

export interface ProbeOptions {
  signal: AbortSignal
}

/**
 * Runs named checks in order; the first failure ends the run and the later steps are listed
 * as skipped, so `steps[]` always has the same names and says which check failed. A check
 * returns a detail or nothing; a thrown error's message becomes the failed step's detail.
 */
export async function runProbeSteps(
  checks: readonly (readonly [name: string, check: () => Promise<string | undefined>])[],
): Promise<ProbeReport> {
  const steps: ProbeStep[] = []
  let failed = false
  for (const [name, check] of checks) {
    if (failed) {
      steps.push({ name, ok: false, skipped: true })
      continue
    }
    try {
      const detail = await check()
      steps.push(detail ? { name, ok: true, detail } : { name, ok: true })
    } catch (error) {
      failed = true
      steps.push({
        name,
        ok: false,
        code: error instanceof ProviderFailure ? error.code : 'failed',
        detail: error instanceof Error ? error.message : String(error),
      })
    }
  }
  return { ok: !failed, steps }
}
