import type { RenderRequest } from './render-records.ts'

// A feature a workspace's plan may lack (SPEC 7.3 `plan_feature_unavailable`). Core's features
// and third-party plugins declare theirs the same way: `registries.planFeatures.add(key, feature)`
// in register(), with `provides: { planFeatures: [key] }`. The key is the feature's key in every
// plan's `features` (plans are data: `docsvc plan set <plan> --feature <key>=true`). One gate in
// core (PlanGate) answers for all of them (decision 0080).

/** The SPEC 7.4 warnings a render gets where SPEC skips a feature the plan lacks instead of refusing. */
export type PlanSkipWarningCode = 'einvoice_skipped_plan' | 'storage_skipped_plan' | 'email_skipped_plan'

export interface PlanFeature {
  /** what people read in problems and tables: `PDF/A`, `batches` */
  readonly title: string
  /**
   * Where a render request uses the feature (`output.pdf.pdfa`), or undefined when it does not.
   * The gate asks every feature that has this when a render is created (every route of the
   * render family, template defaults applied) and refuses the render with 402 when the plan
   * lacks one it uses. A feature with routes of its own (batches, signed links) leaves it out
   * and asks the gate at those routes.
   */
  usedBy?(request: RenderRequest): string | undefined
  /**
   * Where a plan has no value for this key yet (a plugin installed after the plans were
   * seeded), the plan with this id and every plan after it (by position) get `true`, the
   * others `false`; without it every plan gets `true`. Written into the plan data once, at
   * start; the operator's edits win from then on.
   */
  readonly includedFrom?: string
  /** SPEC's warning where a default use of the feature is skipped instead of refused */
  readonly skipWarning?: PlanSkipWarningCode
}
