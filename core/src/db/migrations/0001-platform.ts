import type { Kysely } from 'kysely'
import { createApiKeyTables } from '../../api-keys/migrations/0001-platform-api-keys.ts'
import { createIdempotencyTables } from '../../idempotency/migrations/0001-platform-idempotency.ts'
import { createPlanTables } from '../../plans/migrations/0001-platform-plans.ts'
import { createRateLimitTables } from '../../rate-limits/migrations/0001-platform-rate-limits.ts'
import { createWorkspaceTables } from '../../workspaces/migrations/0001-platform-workspaces.ts'

/**
 * The platform tables every process needs, one migration that installations recorded as
 * `0001-platform`: its name and what it runs never change. Each feature keeps its part in its own
 * folder; this runs them in the order the one-file migration had (references point backwards:
 * workspaces need plans, keys need workspaces). platform-schema.test.ts compares the result with
 * what the one file created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createPlanTables(db)
  await createWorkspaceTables(db)
  await createApiKeyTables(db)
  await createIdempotencyTables(db)
  await createRateLimitTables(db)
}
