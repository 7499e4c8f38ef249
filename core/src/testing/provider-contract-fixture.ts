import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import type { PluginLogger } from '../sdk/define-plugin.ts'
import { credentialValues, type ProviderSettings } from './provider-contract-checks.ts'

/** What every provider kit's subject has: a factory, the three settings, and its own cleanup. */
interface ProviderSubject<P> {
  factory: { create(settings: never, ctx: { log: PluginLogger }): P }
  settings: ProviderSettings
  permanentFault: ProviderSettings
  transientFault: ProviderSettings
  close(): Promise<void>
}

export interface ProviderFixture<S, P> {
  readonly subject: S
  readonly scratch: string
  /** a provider made from these settings (the working ones by default), closed after the suite */
  provider(settings?: ProviderSettings): P
  /** every credential value of the three settings, which no report or failure may show */
  secrets(): string[]
}

const quietLog: PluginLogger = { info() {}, warn() {}, error() {}, debug() {} }

/**
 * The subject's lifecycle the storage and email kits share, registered in the calling describe:
 * set up once with a scratch folder; every provider made closed, then the subject, then the folder.
 */
export function providerContractFixture<S extends ProviderSubject<P>, P extends { close?(): unknown }>(
  setup: () => Promise<S>,
  scratchPrefix: string,
): ProviderFixture<S, P> {
  let subject: S | undefined
  let scratch: string | undefined
  const made: P[] = []
  beforeAll(async () => {
    subject = await setup()
    scratch = mkdtempSync(path.join(tmpdir(), scratchPrefix))
  })
  afterAll(async () => {
    await Promise.all(made.map((p) => p.close?.()))
    await subject?.close()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })
  const fixture: ProviderFixture<S, P> = {
    get subject(): S {
      if (!subject) throw new Error('the contract subject is made in beforeAll')
      return subject
    },
    get scratch(): string {
      if (!scratch) throw new Error('the scratch folder is made in beforeAll')
      return scratch
    },
    provider(settings: ProviderSettings = fixture.subject.settings): P {
      const created = fixture.subject.factory.create(settings as never, { log: quietLog })
      made.push(created)
      return created
    },
    secrets(): string[] {
      const s = fixture.subject
      return credentialValues([s.settings, s.permanentFault, s.transientFault])
    },
  }
  return fixture
}
