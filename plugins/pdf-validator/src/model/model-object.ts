// One object of veraPDF's model as the rules see it: a type name (veraPDF's, e.g. `PDFont`),
// the properties the profile tests read, and where it is for the finding.

export interface ModelObject {
  type: string
  props: Record<string, unknown>
  /** a readable context, e.g. `12 0 obj PDFont /Helvetica` */
  context: string
  /** 1-based page the object is on, when it is on one */
  page?: number
  /**
   * an object of the type the model cannot read yet (e.g. a glyph of a font kind not modelled):
   * not evaluated, and it takes the rules of its type out of the document's rulesChecked
   */
  unmodelled?: true
  /**
   * properties the model cannot settle for this object (e.g. a font program of a kind it does not
   * read): the rules reading any of them skip it and leave the document's rulesChecked
   */
  unknown?: readonly string[]
}

/**
 * The types the model builds, each with its parent type (a rule on the parent applies to it) and
 * the properties it computes. A rule counts as checked only when its object type is here and
 * every name its test reads is among the type's (or its ancestors') properties.
 */
export interface ModelType {
  parent?: string
  props: readonly string[]
}

export type ModelTypes = Record<string, ModelType>

/** The type and its ancestors, nearest first. */
export function lineage(types: ModelTypes, type: string): string[] {
  const out: string[] = []
  for (let t: string | undefined = type; t && !out.includes(t); t = types[t]?.parent) out.push(t)
  return out
}

export function propsOf(types: ModelTypes, type: string): Set<string> {
  return new Set(lineage(types, type).flatMap((t) => types[t]?.props ?? []))
}
