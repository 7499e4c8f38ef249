import type { KeyMode } from './key-format.ts'

export interface ApiKey {
  id: string
  workspace_id: string
  name: string
  mode: KeyMode
  secret_hash: string
  last4: string
  scopes: string[]
  ip_allowlist: string[] | null
  template_allowlist: string[] | null
  expires_at: string | null
  revoked_at: string | null
  rolled_to: string | null
  grace_until: string | null
  created_at: string
  last_used_at: string | null
  last_ip: string | null
}

/** What listings show: never the secret or its hash. */
export interface ApiKeyView {
  id: string
  object: 'api_key'
  workspace_id: string
  name: string
  mode: KeyMode
  prefix: string
  last4: string
  scopes: string[]
  ip_allowlist: string[] | null
  template_allowlist: string[] | null
  expires_at: string | null
  revoked_at: string | null
  rolled_to: string | null
  grace_until: string | null
  status: 'active' | 'expired' | 'revoked' | 'rolling'
  created_at: string
  last_used_at: string | null
  last_ip: string | null
  unused: boolean
  requests_24h: number
  requests_30d: number
}
