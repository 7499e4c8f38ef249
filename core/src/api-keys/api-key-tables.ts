// The API keys feature's tables (its part of migration 0001-platform in ./migrations), joined to
// the Database type. Other features reach keys through ApiKeyService, never here.

export interface ApiKeyTable {
  id: string
  workspace_id: string
  name: string
  mode: 'test' | 'live'
  secret_hash: string
  last4: string
  scopes: string
  ip_allowlist: string | null
  template_allowlist: string | null
  expires_at: string | null
  revoked_at: string | null
  rolled_to: string | null
  grace_until: string | null
  created_at: string
  last_used_at: string | null
  last_ip: string | null
}

export interface ApiKeyUsageTable {
  key_id: string
  hour: string
  count: number
}

declare module '../db/schema.ts' {
  interface Database {
    api_keys: ApiKeyTable
    api_key_usage: ApiKeyUsageTable
  }
}
