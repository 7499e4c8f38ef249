import type { Registries } from '../kernel/plugins/extension-points.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { EinvoiceModel } from '../sdk/einvoice-contracts.ts'
import type { RenderRequest } from '../sdk/render-records.ts'
import { checkEinvoiceSpec } from './einvoice-request.ts'
import { type EinvoiceWork, writeCheckedEinvoice } from './einvoice-writing.ts'

// A PDF render that embeds an e-invoice (SPEC 2.16 `output.einvoice`, decision 0117): the spec is
// checked when the render is created, the PDF is made PDF/A-3b, and at render time the profile's
// validated CII XML is handed to the `embed` step (the plugin registering a post-processor that
// takes HYBRID_OPTION: the e-invoice plugin's Factur-X step) through the PDF's finishing options.

/** `output.einvoice` (EInvoiceSpec): the profile and the EN 16931 invoice model. */
export interface EinvoiceSpecRequest {
  profile: string
  invoice: EinvoiceModel
}

export const HYBRID_POINTER = '/output/einvoice'
/** the finishing option the `embed` step takes: `{ profile, xml }` (xml base64); never a request field */
export const HYBRID_OPTION = 'einvoice_xml'

/**
 * Checks `output.einvoice` (400 at its field) and makes the PDF PDF/A-3b, the only PDF/A level
 * that may carry the XML (ISO 19005-3): `pdfa: '2b'` with an invoice is refused at `pdfa`.
 * `optionsPointer` is where the request's PDF options sit.
 */
export function prepareHybridEinvoice(
  request: RenderRequest,
  registries: Pick<Registries, 'einvoiceProfiles' | 'pdfPostProcessors'>,
  optionsPointer: string,
): void {
  const spec = request.output.einvoice
  if (spec == null) {
    delete request.output.einvoice
    return
  }
  if (request.output.format !== 'pdf') {
    throw validationProblem([
      { path: HYBRID_POINTER, code: 'conflict', message: 'an e-invoice is embedded in PDF output only' },
    ])
  }
  const embedder = registries.pdfPostProcessors
    .keys()
    .some((id) => HYBRID_OPTION in (registries.pdfPostProcessors.get(id)?.optionsSchema.properties ?? {}))
  if (!embedder) {
    throw validationProblem([
      {
        path: HYBRID_POINTER,
        code: 'unavailable',
        message:
          'this installation cannot embed e-invoices (no post-processing step for it); leave einvoice out',
      },
    ])
  }
  // a hybrid invoice is Factur-X / ZUGFeRD: CII in every profile
  const profile = checkEinvoiceSpec({ ...spec, syntax: 'cii' }, registries.einvoiceProfiles, HYBRID_POINTER)
  if (!profile.syntaxes.includes('cii')) {
    throw validationProblem([
      { path: `${HYBRID_POINTER}/profile`, code: 'enum', message: `profile ${profile.id} writes no CII XML` },
    ])
  }
  const pdf = request.output.pdf ?? {}
  if (pdf.pdfa === '2b') {
    throw validationProblem([
      {
        path: `${optionsPointer}/pdfa`,
        code: 'conflict',
        message: "an embedded e-invoice needs PDF/A-3b (ISO 19005-3): use pdfa: '3b' or leave pdfa out",
      },
    ])
  }
  request.output.pdf = { ...pdf, pdfa: '3b' }
}

/**
 * The finishing options of a hybrid render's PDF: the validated XML for the `embed` step. Throws
 * einvoice_invalid / einvoice_validation_failed (failed render, unbilled) with the report.
 */
export async function hybridFinishingOptions(
  request: RenderRequest,
  registries: Pick<Registries, 'einvoiceProfiles'>,
  work: EinvoiceWork,
): Promise<{ options: Record<string, unknown>; report: Record<string, unknown> } | undefined> {
  const spec = request.output.einvoice
  if (spec == null) return undefined
  const profile = registries.einvoiceProfiles.get(spec.profile)
  if (!profile)
    throw new ProblemError('render_failed', `This installation no longer offers the profile ${spec.profile}.`)
  const { xml, report } = await writeCheckedEinvoice(
    profile,
    { syntax: 'cii', invoice: spec.invoice },
    HYBRID_POINTER,
    work,
  )
  return { options: { [HYBRID_OPTION]: { profile: profile.id, xml: xml.toString('base64') } }, report }
}
