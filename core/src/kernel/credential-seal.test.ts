import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { CredentialField } from '../sdk/provider-contracts.ts'
import { CredentialSeal, credentialsView } from './credential-seal.ts'

const config = (secretKey: string) => ({ secretKey, mode: 'cluster' as const, dataDir: '/nonexistent' })
const KEY = 'k'.repeat(40)
const Credentials = Type.Object({ access_key_id: CredentialField(), secret_access_key: CredentialField() })
const credentials = { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'wJalrXUtnFEMI-very-secret' }

describe('CredentialSeal', () => {
  it('seals credentials so that their values are not in the stored text, and opens them again', () => {
    const seal = new CredentialSeal(config(KEY))
    const sealed = seal.seal('dst_1', Credentials, credentials)
    expect(sealed).not.toContain('wJalrXUtnFEMI')
    expect(sealed).not.toContain('AKIAEXAMPLE')
    expect(seal.open('dst_1', sealed)).toEqual(credentials)
  })

  it('does not open a value moved onto another record, or under another installation key', () => {
    const sealed = new CredentialSeal(config(KEY)).seal('dst_1', Credentials, credentials)
    expect(() => new CredentialSeal(config(KEY)).open('dst_2', sealed)).toThrow()
    expect(() => new CredentialSeal(config('o'.repeat(40))).open('dst_1', sealed)).toThrow()
  })

  it('refuses a credentials schema with a field not marked write-only, and fields the schema lacks', () => {
    const seal = new CredentialSeal(config(KEY))
    const leaky = Type.Object({ api_key: Type.String() })
    expect(() => seal.seal('emc_1', leaky, { api_key: 'x' })).toThrow(/must be write-only.*api_key/)
    expect(() => seal.seal('emc_1', Credentials, { ...credentials, token: 'x' })).toThrow(/token/)
  })

  it('shows a read only whether credentials are configured', () => {
    expect(credentialsView('v1.a.b.c')).toEqual({ configured: true })
    expect(credentialsView(null)).toEqual({ configured: false })
  })
})
