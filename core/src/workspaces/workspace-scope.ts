/** One workspace in one mode: what a test key sees is never what a live key sees (SPEC 1). */
export interface WorkspaceScope {
  workspaceId: string
  test: boolean
}
