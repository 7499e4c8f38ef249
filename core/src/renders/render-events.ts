import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { EventOutbox } from '../events/event-outbox.ts'
import type { Render, RenderFile } from './render.ts'
import type { RenderFileLinks } from './render-file-links.ts'
import { hostingOf } from './render-hosting.ts'
import { type FileView, fileView, renderView } from './render-view.ts'

export type RenderEventType = 'render.succeeded' | 'render.failed' | 'render.expired'

/** The render record as events, GET and sync responses show it. */
export type RenderRecordView = ReturnType<typeof renderView>

/**
 * The files a render event lists (SPEC 6.2: the full render record): with fresh links when
 * hosted, without when not (zero retention, hosted: false); none but for render.succeeded.
 */
export function eventFileViews(
  deps: { renderFileLinks: RenderFileLinks },
  type: RenderEventType,
  render: Render,
  files: RenderFile[],
): FileView[] {
  const { hosted } = hostingOf(render)
  return files
    .filter((f) => !f.deleted_at && type === 'render.succeeded')
    .map((f) => fileView(f, hosted ? deps.renderFileLinks.link(render, f) : {}))
}

/**
 * The record as the workspace's webhooks get it: with the file links, unless the operator
 * switched its `file_urls_in_webhooks` setting off (then the event lists the files, the client
 * fetches them through GET /v1/renders/{id}).
 */
export function webhookRecord(record: RenderRecordView, fileUrls: boolean): RenderRecordView {
  if (fileUrls) return record
  return { ...record, files: record.files.map(({ url: _url, expires_at: _expires, ...file }) => file) }
}

/**
 * The writer of one render event, for the transaction that makes the change. Batch items send
 * none; batch events report on them. `object` when the caller made it already.
 */
export function renderEventWriter(
  deps: { eventOutbox: EventOutbox; renderFileLinks: RenderFileLinks },
  type: RenderEventType,
  render: Render,
  files: RenderFile[],
  object?: RenderRecordView,
): (trx: Kysely<Database>) => Promise<unknown> {
  return async (trx) => {
    if (render.source === 'batch') return
    await deps.eventOutbox.emit(trx, {
      workspaceId: render.workspace_id,
      type,
      test: render.test,
      data: { object: object ?? renderView(render, eventFileViews(deps, type, render, files)) },
    })
  }
}
