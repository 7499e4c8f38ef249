import type { TObject } from 'typebox'
import type { FieldProblem } from '../kernel/problem-error.ts'
import { orderPostProcessors, type PdfPostProcessor } from '../sdk/pdf-pipeline-contracts.ts'

// Which registered PDF post-processors a render's PDF options call for, and the problems of a
// request that asks for a step this installation does not have (decision 0109).

/**
 * The PDF options SPEC 2.16 names that only a post-processing step makes real: accepted by the
 * PDF output's schema, refused (400 at the field) when no installed step takes them, never
 * accepted and ignored (decision 0080: a capability the installation lacks is a 400).
 */
const STEP_OPTIONS: Record<string, string> = { pdfa: 'PDF/A', pdfua: 'PDF/UA-1' }

/** An option is given when it asks for something: `pdfua: false` and null ask for nothing. */
function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false
}

function keysOf(schema: TObject): string[] {
  return Object.keys(schema.properties ?? {})
}

export interface PlannedStep {
  processor: PdfPostProcessor
  /** the PDF options its schema names, as the request gave them */
  options: Record<string, unknown>
}

/** The steps whose options are given, in the chain's order (phase, order, id). */
export function plannedSteps(
  processors: Iterable<PdfPostProcessor>,
  options: Record<string, unknown>,
): PlannedStep[] {
  const chosen = [...processors].filter((p) => keysOf(p.optionsSchema).some((key) => isGiven(options[key])))
  return orderPostProcessors(chosen).map((processor) => ({
    processor,
    options: Object.fromEntries(
      keysOf(processor.optionsSchema).flatMap((k) => (k in options ? [[k, options[k]]] : [])),
    ),
  }))
}

export type SchemaCheck = (schema: TObject, value: unknown, pointer: string) => FieldProblem[]

/**
 * What is wrong with a PDF render's post-processing options, pointers under `at`: a step option
 * (pdfa, pdfua) no installed step takes, options a step's schema refuses, PDF/A asked with
 * `protect` (ISO 19005-2 6.1.3 forbids encryption) and PDF/A-2b with attachments (6.8).
 */
export function postProcessingProblems(
  processors: Iterable<PdfPostProcessor>,
  options: Record<string, unknown>,
  at: string,
  check: SchemaCheck,
): FieldProblem[] {
  const all = [...processors]
  const problems: FieldProblem[] = []
  // first: the answer does not depend on which steps this installation has
  if (isGiven(options.pdfa) && isGiven(options.protect)) {
    problems.push({
      path: `${at}/protect`,
      code: 'conflict',
      message: 'PDF/A forbids encryption (ISO 19005 6.1.3): leave protect out, or pdfa',
    })
  }
  // PDF/A-2 embeds only files that are PDF/A themselves (6.8), which a request cannot promise for
  // files fetched later: PDF/A-3b is the level made for arbitrary attachments
  if (options.pdfa === '2b' && Array.isArray(options.attachments) && options.attachments.length > 0) {
    problems.push({
      path: `${at}/attachments`,
      code: 'conflict',
      message:
        "PDF/A-2b embeds only files that are PDF/A themselves (ISO 19005-2 6.8): use pdfa: '3b' for attachments",
    })
  }
  for (const [key, title] of Object.entries(STEP_OPTIONS)) {
    if (!isGiven(options[key]) || all.some((p) => keysOf(p.optionsSchema).includes(key))) continue
    problems.push({
      path: `${at}/${key}`,
      code: 'unavailable',
      message: `${title} output is not available on this installation (no post-processing step for it is installed); leave ${key} out`,
    })
  }
  for (const step of plannedSteps(all, options))
    problems.push(...check(step.processor.optionsSchema, step.options, at))
  return problems
}
