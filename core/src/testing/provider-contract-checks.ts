import type { TObject } from 'typebox'
import { Value } from 'typebox/value'
import { expect } from 'vitest'
import {
  type FailureKind,
  type ProbeReport,
  type ProviderFailure,
  readableCredentialFields,
} from '../sdk/provider-contracts.ts'

// Checks the storage and email contract kits share: schemas, credentials that never leak,
// classified failures and the probe's shape.

/** a destination's or connection's settings, as the kernel hands them to `create` */
export interface ProviderSettings {
  config: Record<string, unknown>
  credentials: Record<string, unknown>
}

export function expectSchemas(
  factory: { configSchema: TObject; credentialsSchema: TObject },
  settings: ProviderSettings[],
): void {
  expect(readableCredentialFields(factory.credentialsSchema), 'credential fields not write-only').toEqual([])
  for (const { config, credentials } of settings) {
    expect(Value.Check(factory.configSchema, config), `config ${JSON.stringify(config)}`).toBe(true)
    expect(Value.Check(factory.credentialsSchema, credentials), 'credentials fit the schema').toBe(true)
  }
}

/** every credential value of these settings (strings of 4+ characters), to look for leaks */
export function credentialValues(settings: ProviderSettings[]): string[] {
  return settings.flatMap(({ credentials }) =>
    Object.values(credentials).filter((v): v is string => typeof v === 'string' && v.length >= 4),
  )
}

export function expectNoCredentials(what: string, text: string, secrets: string[]): void {
  for (const secret of secrets) expect(text.includes(secret), `${what} shows a credential`).toBe(false)
}

/** what the kernel shows or logs of a failure: its message, reason and cause's message */
export function shownText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? error.cause.message : String(error.cause ?? '')
  return [error.message, (error as Partial<ProviderFailure>).reason ?? '', cause].join('\n')
}

/** the call rejects with a ProviderFailure of `kind` (and of `failureClass`), which it returns */
export async function expectFailure<F extends ProviderFailure>(
  call: Promise<unknown>,
  failureClass: abstract new (...args: never[]) => F,
  kind: FailureKind,
  reason?: string,
): Promise<F> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'the call should have failed').toBeInstanceOf(failureClass)
  const failure = error as F
  expect({ kind: failure.kind, ...(reason ? { reason: failure.reason } : {}) }).toEqual({
    kind,
    ...(reason ? { reason } : {}),
  })
  return failure
}

/**
 * A probe's report: step names as listed (in that order), `ok` agreeing with the steps, the
 * failed step with a detail and every step after it skipped.
 */
export function expectProbeShape(report: ProbeReport, names: readonly string[]): void {
  expect(report.steps.map((s) => s.name)).toEqual(names)
  const failedAt = report.steps.findIndex((s) => !s.ok)
  expect(report.ok).toBe(failedAt === -1)
  if (failedAt === -1) return
  expect(report.steps[failedAt]!.detail, 'a failed step says why').toMatch(/\S/)
  expect(report.steps[failedAt]!.skipped).toBeFalsy()
  for (const later of report.steps.slice(failedAt + 1))
    expect(later).toMatchObject({ ok: false, skipped: true })
}
