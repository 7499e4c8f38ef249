import type { Render, RenderFile } from './render.ts'

export interface FileView {
  id: string
  format: string
  content_type: string
  size: number
  filename: string
  pages?: number
  width?: number
  height?: number
  url?: string
  expires_at?: string
  data?: string
}

/** The render record of SPEC 2.4 as clients see it. */
export function renderView(render: Render, files: FileView[]) {
  return {
    id: render.id,
    object: 'render' as const,
    status: render.status,
    test: render.test,
    input_type: render.input_type,
    kind: render.kind,
    source: render.source,
    output_format: render.output_format,
    reference: render.reference,
    metadata: render.metadata,
    template_id: render.template_id,
    batch_id: render.batch_id,
    mode: render.mode,
    priority: render.priority,
    files,
    result: render.result,
    warnings: render.warnings,
    error: render.error,
    created_at: render.created_at,
    started_at: render.started_at,
    finished_at: render.finished_at,
    files_expire_at: render.files_expire_at,
  }
}

export function fileView(
  file: RenderFile,
  extra: { url?: string; expires_at?: string; data?: string } = {},
): FileView {
  return {
    id: file.id,
    format: file.format,
    content_type: file.content_type,
    size: file.size,
    filename: file.filename,
    ...(file.pages !== null ? { pages: file.pages } : {}),
    ...(file.width !== null ? { width: file.width } : {}),
    ...(file.height !== null ? { height: file.height } : {}),
    ...extra,
  }
}
