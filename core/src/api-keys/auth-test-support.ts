import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { TestKernel } from '../testing/index.ts'

/**
 * Auth suites send many failing requests from one address within a second; the anonymous rate
 * limit would answer 429 instead of the 401 under test, so it is raised here.
 */
export const AUTH_TEST_ENV: Record<string, string> = { DOCSVC_ANONYMOUS_REQUESTS_PER_SECOND: '100000' }

// SPEC 7.3 titles as a user reads them, written out here so a changed table fails the suite
const TITLES: Record<string, string> = {
  authentication_required: 'Authentication required',
  invalid_api_key: 'Invalid API key',
  api_key_expired: 'API key expired',
  api_key_revoked: 'API key revoked',
  insufficient_scope: 'Insufficient scope',
  ip_not_allowed: 'IP address not allowed',
  workspace_suspended: 'Workspace suspended',
  workspace_deletion_scheduled: 'Workspace scheduled for deletion',
}

/** Asserts one RFC 9457 answer as SPEC 7.1 describes it and returns its body. */
export function expectProblem(
  res: LightMyRequestResponse,
  status: number,
  code: string,
): Record<string, unknown> {
  const body = res.json() as Record<string, unknown>
  expect({ status: res.statusCode, code: body.code }).toEqual({ status, code })
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(body.status).toBe(status)
  expect(body.title).toBe(TITLES[code])
  expect(body.type).toMatch(new RegExp(`^https?://.+/errors/${code}$`))
  expect(typeof res.headers['x-request-id']).toBe('string')
  expect(body.request_id).toBe(res.headers['x-request-id'])
  return body
}

/** GET /v1/account, the route every key with account:read may call. */
export function getAccount(
  t: TestKernel,
  options: { key?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.inject({ method: 'GET', url: '/v1/account', ...options })
}
