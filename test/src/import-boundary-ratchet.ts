/**
 * The import-boundary violations that existed when the rules were written (decision 0032). The
 * test fails on a violation not listed here and on a listed one that is gone, so this list only
 * shrinks: fix an import, delete its line. Never add a line to make a new import pass — route it
 * through the SDK, an extension point, or the other feature's service instead.
 */

export interface KnownViolation {
  /** the importing file, root-relative */
  readonly file: string
  /** the module specifier as written, or `table <name>` for a query on another feature's table */
  readonly imports: string
  readonly reason: string
  /** the issue-14 item whose work removes it */
  readonly removedBy: string
}

export const KNOWN_VIOLATIONS: readonly KnownViolation[] = []
