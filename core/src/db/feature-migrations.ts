import type { Migration } from 'kysely/migration'
import * as m0009 from '../billing/migrations/0009-billing.ts'
import * as m0012 from '../billing/migrations/0012-billing-reservations.ts'
import * as m0003 from '../events/migrations/0003-events.ts'
import * as m0010 from '../members/migrations/0010-members.ts'
import * as m0014 from '../members/migrations/0014-ended-ownerships.ts'
import * as m0002 from '../renders/migrations/0002-renders.ts'
import * as m0007 from '../renders/migrations/0007-renders-at-rest.ts'
import * as m0008 from '../renders/migrations/0008-renders-in-flight.ts'
import * as m0013 from '../storage/migrations/0013-storage-destinations.ts'
import * as m0004 from '../templates/migrations/0004-templates.ts'
import * as m0005 from '../uploads/migrations/0005-uploads.ts'
import * as m0006 from '../webhooks/migrations/0006-webhooks.ts'
import * as m0011 from '../workspaces/migrations/0011-workspace-email-check.ts'

/**
 * The migrations each feature keeps in its own folder (`core/src/<feature>/migrations/`), under
 * the name installations recorded when they ran them: a database matches migrations by name, so a
 * name never changes, even when its file moves. Listed, not scanned, so the bundle knows them all.
 */
export const FEATURE_MIGRATIONS: Readonly<Record<string, Readonly<Record<string, Migration>>>> = {
  renders: {
    '0002-renders': m0002,
    '0007-renders-at-rest': m0007,
    '0008-renders-in-flight': m0008,
  },
  events: { '0003-events': m0003 },
  templates: { '0004-templates': m0004 },
  uploads: { '0005-uploads': m0005 },
  webhooks: { '0006-webhooks': m0006 },
  billing: { '0009-billing': m0009, '0012-billing-reservations': m0012 },
  members: { '0010-members': m0010, '0014-ended-ownerships': m0014 },
  workspaces: { '0011-workspace-email-check': m0011 },
  storage: { '0013-storage-destinations': m0013 },
}
