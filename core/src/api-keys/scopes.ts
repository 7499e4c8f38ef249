// SPEC Part 5 scopes. For webhooks, storage, signed links and email the write scope includes read.
export const SCOPES = [
  'render:write',
  'renders:read',
  'renders:delete',
  'templates:read',
  'templates:write',
  'webhooks:read',
  'webhooks:write',
  'storage:read',
  'storage:write',
  'signed_links:read',
  'signed_links:write',
  'email:read',
  'email:write',
  'account:read',
] as const

export type Scope = (typeof SCOPES)[number]

const IMPLIED_BY: Partial<Record<Scope, Scope>> = {
  'webhooks:read': 'webhooks:write',
  'storage:read': 'storage:write',
  'signed_links:read': 'signed_links:write',
  'email:read': 'email:write',
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}

/** True when a key holding `granted` may do what `required` allows (any one of them). */
export function hasScope(granted: readonly string[], required: Scope | readonly Scope[]): boolean {
  const needed = typeof required === 'string' ? [required] : required
  return needed.some((scope) => {
    const implied = IMPLIED_BY[scope]
    return granted.includes(scope) || (implied !== undefined && granted.includes(implied))
  })
}
