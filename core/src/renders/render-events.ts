import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { EventOutbox } from '../events/event-outbox.ts'
import type { Render, RenderFile } from './render.ts'
import type { RenderFileLinks } from './render-file-links.ts'
import { hostingOf } from './render-hosting.ts'
import { fileView, renderView } from './render-view.ts'

export type RenderEventType = 'render.succeeded' | 'render.failed' | 'render.expired'

/**
 * The writer of one render event, for the transaction that makes the change (SPEC 6.2: the data
 * object is the full render record). Batch items send none; batch events report on them.
 */
export function renderEventWriter(
  deps: { eventOutbox: EventOutbox; renderFileLinks: RenderFileLinks },
  type: RenderEventType,
  render: Render,
  files: RenderFile[],
): (trx: Kysely<Database>) => Promise<unknown> {
  return async (trx) => {
    if (render.source === 'batch') return
    // a copy that is not hosted (zero retention, hosted: false) is listed without a link
    const { hosted } = hostingOf(render)
    const views = files
      .filter((f) => !f.deleted_at && type === 'render.succeeded')
      .map((f) => fileView(f, hosted ? deps.renderFileLinks.link(render, f) : {}))
    await deps.eventOutbox.emit(trx, {
      workspaceId: render.workspace_id,
      type,
      test: render.test,
      data: { object: renderView(render, views) },
    })
  }
}
