// The uploads table (migration 0005 in ./migrations), joined to the Database type.

export interface UploadTable {
  id: string
  workspace_id: string
  test: number
  filename: string
  content_type: string
  size: number
  sha256: string
  storage_key: string
  created_at: string
  expires_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    uploads: UploadTable
  }
}
