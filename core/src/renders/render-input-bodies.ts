import { readStoredFile } from '../files/read-stored-file.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { Render, RenderRequest } from './render.ts'

// Large input bodies (an HTML page up to the body limit) would sit in `renders.request` until the
// row is purged. Past LARGE_BODY_BYTES they go to the file store at creation instead; the worker
// reads them back, and they are deleted once the render ends.

export const LARGE_BODY_BYTES = 64 * 1024

/** The input fields that carry whole documents. */
const BODY_FIELDS = ['html', 'head', 'markdown', 'css'] as const

function bodyKey(render: Pick<Render, 'id' | 'workspace_id'>, field: string): string {
  return `${render.workspace_id}/${render.id}/input-${field}.txt`
}

/** Moves the large bodies of a new render's request to the store; the request keeps their keys. */
export async function storeLargeBodies(
  store: FileStore,
  render: Pick<Render, 'id' | 'workspace_id'>,
  request: RenderRequest,
): Promise<RenderRequest> {
  const stored: Record<string, string> = {}
  const input = { ...request.input }
  for (const field of BODY_FIELDS) {
    const value = input[field]
    if (typeof value !== 'string' || Buffer.byteLength(value) <= LARGE_BODY_BYTES) continue
    const key = bodyKey(render, field)
    await store.put(key, Buffer.from(value), 'text/plain; charset=utf-8')
    stored[field] = key
    delete input[field]
  }
  if (Object.keys(stored).length === 0) return request
  return { ...request, input, stored_bodies: stored }
}

/** The request as it was sent: stored bodies read back into the input. */
export async function loadLargeBodies(store: FileStore, request: RenderRequest): Promise<RenderRequest> {
  if (!request.stored_bodies) return request
  const input = { ...request.input }
  for (const [field, key] of Object.entries(request.stored_bodies)) {
    const bytes = await readStoredFile(store, key)
    if (!bytes) throw new Error(`the stored ${field} of this render is missing`)
    input[field] = bytes.toString('utf8')
  }
  const { stored_bodies: _stored, ...rest } = request
  return { ...rest, input }
}

/** Deletes the stored bodies of a render that will not run (again). */
export async function discardLargeBodies(store: FileStore, render: Pick<Render, 'request'>): Promise<void> {
  for (const key of Object.values(render.request.stored_bodies ?? {})) await store.delete(key)
}
