// Uploads (SPEC 2.15): one file, kept 24 hours, referenced by `upload_id` (PDF tool sources,
// batch CSVs). Its table is typed in upload-tables.ts.

export const UPLOAD_LIFETIME_MS = 24 * 3600 * 1000
/** SPEC 8: an upload is at most 50 MB */
export const UPLOAD_MAX_BYTES = 50 * 1000 * 1000

export interface Upload {
  id: string
  workspace_id: string
  test: boolean
  filename: string
  content_type: string
  size: number
  sha256: string
  storage_key: string
  created_at: string
  expires_at: string
}

/** The upload as the API shows it. */
export function uploadView(upload: Upload) {
  return {
    id: upload.id,
    object: 'upload' as const,
    filename: upload.filename,
    content_type: upload.content_type,
    size: upload.size,
    sha256: upload.sha256,
    test: upload.test,
    created_at: upload.created_at,
    expires_at: upload.expires_at,
  }
}
