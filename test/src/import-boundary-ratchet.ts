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

export const KNOWN_VIOLATIONS: readonly KnownViolation[] = [
  // a feature reaches another feature's repository
  {
    file: 'core/src/http/access-guard.ts',
    imports: '../plans/plan-repository.ts',
    reason: "the access guard reads a workspace's plan from the plans repository",
    removedBy: 'item 5',
  },
  {
    file: 'core/src/kernel/container.ts',
    imports: '../api-keys/api-key-repository.ts',
    reason: "the kernel's container wires every feature's repository",
    removedBy: 'items 1 and 2 (features register their own services)',
  },
  {
    file: 'core/src/kernel/container.ts',
    imports: '../plans/plan-repository.ts',
    reason: "the kernel's container wires every feature's repository",
    removedBy: 'items 1 and 2 (features register their own services)',
  },
  {
    file: 'core/src/kernel/container.ts',
    imports: '../renders/render-repository.ts',
    reason: "the kernel's container wires every feature's repository",
    removedBy: 'items 1 and 2 (features register their own services)',
  },
  {
    file: 'core/src/kernel/container.ts',
    imports: '../workspaces/workspace-repository.ts',
    reason: "the kernel's container wires every feature's repository",
    removedBy: 'items 1 and 2 (features register their own services)',
  },
  {
    file: 'core/src/renders/render-runner.ts',
    imports: '../plans/plan-repository.ts',
    reason: "the runner reads the render's plan from the plans repository",
    removedBy: 'item 5',
  },
  {
    file: 'core/src/renders/render-runner.ts',
    imports: '../workspaces/workspace-repository.ts',
    reason: "the runner reads the render's workspace from its repository",
    removedBy: 'item 5',
  },
  {
    file: 'core/src/renders/render-sweeper.ts',
    imports: '../plans/plan-repository.ts',
    reason: "the sweeper reads a render's plan from the plans repository",
    removedBy: 'item 5',
  },
  {
    file: 'core/src/renders/render-sweeper.ts',
    imports: '../workspaces/workspace-repository.ts',
    reason: "the sweeper reads a render's workspace from its repository",
    removedBy: 'item 5',
  },
  {
    file: 'core/src/workspaces/workspace-service.ts',
    imports: '../plans/plan-repository.ts',
    reason: 'the workspace service looks plans up in their repository',
    removedBy: 'item 5',
  },
]
