import { nowIso } from '../db/json-columns.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { addressInList, allowlistOrNull } from '../net/cidr.ts'
import type { Workspace } from '../workspaces/workspace.ts'
import type { WorkspaceService } from '../workspaces/workspace-service.ts'
import type { ApiKey, ApiKeyView } from './api-key.ts'
import type { ApiKeyRepository } from './api-key-repository.ts'
import {
  hashSecret,
  type KeyMode,
  keyRecordId,
  newKeyParts,
  parseKeyString,
  secretMatches,
} from './key-format.ts'
import { usageHour } from './key-usage-recorder.ts'
import { isScope, SCOPES } from './scopes.ts'

export const GRACE_HOURS = [0, 1, 24, 72] as const
const UNUSED_AFTER_MS = 90 * 24 * 3600 * 1000

export interface CreateKeyInput {
  workspaceId: string
  mode: KeyMode
  name?: string
  scopes?: string[]
  ipAllowlist?: string[] | null
  templateAllowlist?: string[] | null
  expiresAt?: string | null
}

export interface AuthContext {
  workspace: Workspace
  key: ApiKey
  test: boolean
}

export class ApiKeyService {
  readonly #keys: ApiKeyRepository
  readonly #workspaces: WorkspaceService

  constructor(deps: { apiKeyRepository: ApiKeyRepository; workspaceService: WorkspaceService }) {
    this.#keys = deps.apiKeyRepository
    this.#workspaces = deps.workspaceService
  }

  /** Creates a key; the full key string is returned here once and never stored. */
  async create(input: CreateKeyInput): Promise<{ key: string; record: ApiKey }> {
    const created = await this.#build(input)
    await this.#keys.insert(created.record)
    return created
  }

  async #build(input: CreateKeyInput): Promise<{ key: string; record: ApiKey }> {
    await this.#workspaces.get(input.workspaceId)
    // no list means every scope; an empty list must not silently become every scope
    if (input.scopes && input.scopes.length === 0)
      throw new ProblemError(
        'validation_error',
        `a key needs at least one scope; scopes: ${SCOPES.join(', ')}`,
      )
    const scopes = input.scopes ? [...new Set(input.scopes)] : [...SCOPES]
    const unknown = scopes.filter((s) => !isScope(s))
    if (unknown.length > 0) {
      throw new ProblemError(
        'validation_error',
        `unknown scope ${unknown.join(', ')}; scopes: ${SCOPES.join(', ')}`,
      )
    }
    let expiresAt: string | null = null
    if (input.expiresAt) {
      const at = new Date(input.expiresAt)
      if (Number.isNaN(at.getTime()))
        throw new ProblemError('validation_error', `expires_at ${input.expiresAt} is not a date`)
      expiresAt = at.toISOString()
    }
    const parts = newKeyParts(input.mode)
    const record: ApiKey = {
      id: keyRecordId(parts.keyId),
      workspace_id: input.workspaceId,
      name: input.name?.trim() || `${input.mode} key`,
      mode: input.mode,
      secret_hash: hashSecret(parts.secret),
      last4: parts.secret.slice(-4),
      scopes,
      ip_allowlist: allowlistOrNull(input.ipAllowlist),
      template_allowlist:
        input.templateAllowlist && input.templateAllowlist.length > 0 ? input.templateAllowlist : null,
      expires_at: expiresAt,
      revoked_at: null,
      rolled_to: null,
      grace_until: null,
      created_at: nowIso(),
      last_used_at: null,
      last_ip: null,
    }
    return { key: parts.full, record }
  }

  /** SPEC Part 5: the four 401s, then workspace state, then IP allowlists (workspace and key). */
  async authenticate(keyText: string | undefined, clientIp: string, now = new Date()): Promise<AuthContext> {
    if (keyText === undefined || keyText === '')
      throw new ProblemError(
        'authentication_required',
        'Send an API key as Authorization: Bearer <key> or X-API-Key.',
      )
    const parsed = parseKeyString(keyText)
    const record = parsed ? await this.#keys.get(keyRecordId(parsed.keyId)) : undefined
    if (
      !parsed ||
      !record ||
      record.mode !== parsed.mode ||
      !secretMatches(parsed.secret, record.secret_hash)
    ) {
      throw new ProblemError('invalid_api_key', 'The API key is malformed or unknown.')
    }
    const at = now.toISOString()
    // revocation counts from the moment it is stored, whatever the revoking clock said
    if (record.revoked_at || (record.grace_until && record.grace_until <= at)) {
      throw new ProblemError(
        'api_key_revoked',
        'The API key was revoked or rolled and its grace period ended.',
      )
    }
    if (record.expires_at && record.expires_at <= at) {
      throw new ProblemError('api_key_expired', `The API key expired at ${record.expires_at}.`)
    }
    const workspace = await this.#workspaces.get(record.workspace_id)
    if (workspace.status === 'suspended')
      throw new ProblemError('workspace_suspended', 'The workspace is suspended.')
    if (workspace.status === 'deletion_scheduled') {
      throw new ProblemError(
        'workspace_deletion_scheduled',
        'The workspace is scheduled for deletion; keys are refused.',
      )
    }
    const lists = [
      ['workspace', workspace.ip_allowlist],
      ['key', record.ip_allowlist],
    ] as const
    for (const [owner, list] of lists) {
      if (list && list.length > 0 && !addressInList(clientIp, list)) {
        throw new ProblemError(
          'ip_not_allowed',
          `Requests from ${clientIp} are not allowed for this ${owner}.`,
        )
      }
    }
    return { workspace, key: record, test: record.mode === 'test' }
  }

  async get(workspaceId: string, id: string): Promise<ApiKey> {
    const key = await this.#keys.get(id)
    if (!key || key.workspace_id !== workspaceId)
      throw new ProblemError('not_found', `API key ${id} does not exist`)
    return key
  }

  /** Looks a key up by id alone (operator use). */
  async find(id: string): Promise<ApiKey> {
    const key = await this.#keys.get(id)
    if (!key) throw new ProblemError('not_found', `API key ${id} does not exist`)
    return key
  }

  /** New secret with the same settings; the old key keeps working for `graceHours`. */
  async roll(id: string, graceHours: number, now = new Date()): Promise<{ key: string; record: ApiKey }> {
    if (!(GRACE_HOURS as readonly number[]).includes(graceHours)) {
      throw new ProblemError('validation_error', `grace must be one of ${GRACE_HOURS.join(', ')} hours`)
    }
    const old = await this.find(id)
    const alreadyDone = () => new ProblemError('conflict', `API key ${id} is already revoked or rolled`)
    if (old.revoked_at || old.rolled_to) throw alreadyDone()
    const created = await this.#build({
      workspaceId: old.workspace_id,
      mode: old.mode,
      name: old.name,
      scopes: old.scopes,
      ipAllowlist: old.ip_allowlist,
      templateAllowlist: old.template_allowlist,
      expiresAt: old.expires_at,
    })
    const graceUntil = new Date(now.getTime() + graceHours * 3600 * 1000).toISOString()
    // two rolls at once must not leave two live successors
    if (!(await this.#keys.insertRolled(id, created.record, graceUntil))) throw alreadyDone()
    return created
  }

  async revoke(id: string, now = new Date()): Promise<ApiKey> {
    const key = await this.find(id)
    if (!key.revoked_at) await this.#keys.update(id, { revoked_at: now.toISOString() })
    return this.find(id)
  }

  async list(workspaceId: string, now = new Date()): Promise<ApiKeyView[]> {
    const keys = await this.#keys.listByWorkspace(workspaceId)
    const since24h = usageHour(new Date(now.getTime() - 23 * 3600 * 1000))
    const since30d = usageHour(new Date(now.getTime() - (30 * 24 - 1) * 3600 * 1000))
    const counts = await this.#keys.requestCounts(
      keys.map((k) => k.id),
      [since24h, since30d],
    )
    return keys.map((k) => toView(k, counts.get(k.id) ?? [0, 0], now))
  }
}

export function toView(k: ApiKey, counts: number[], now: Date): ApiKeyView {
  const at = now.toISOString()
  const status =
    k.revoked_at || (k.grace_until && k.grace_until <= at)
      ? 'revoked'
      : k.expires_at && k.expires_at <= at
        ? 'expired'
        : k.rolled_to
          ? 'rolling'
          : 'active'
  const lastUse = Date.parse(k.last_used_at ?? k.created_at)
  return {
    id: k.id,
    object: 'api_key',
    workspace_id: k.workspace_id,
    name: k.name,
    mode: k.mode,
    prefix: `doc_${k.mode}_${k.id.replace(/^key_/, '')}`,
    last4: k.last4,
    scopes: k.scopes,
    ip_allowlist: k.ip_allowlist,
    template_allowlist: k.template_allowlist,
    expires_at: k.expires_at,
    revoked_at: k.revoked_at,
    rolled_to: k.rolled_to,
    grace_until: k.grace_until,
    status,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
    last_ip: k.last_ip,
    unused: now.getTime() - lastUse > UNUSED_AFTER_MS,
    requests_24h: counts[0] ?? 0,
    requests_30d: counts[1] ?? 0,
  }
}
