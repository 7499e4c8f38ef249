// SPEC 1.13 bills protect, rotate, split and unlock as one render each; merge and metadata are
// decided in docs/decisions/0009-pdf-tool-billing.md.
const BILLED: Record<string, boolean> = {
  merge: true,
  metadata: false,
  protect: true,
  rotate: true,
  split: true,
  unlock: true,
}

/** Whether a live render of this tool counts as one billed render. */
export function isBilledTool(tool: string): boolean {
  return BILLED[tool] ?? true
}
