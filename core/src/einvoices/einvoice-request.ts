import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { TObject } from 'typebox'
import { issuesToProblems, oneOfMessage } from '../http/validation-errors.ts'
import { type FieldProblem, validationProblem } from '../kernel/problem-error.ts'
import type { RenderRequest } from '../renders/render.ts'
import type { EinvoiceModel, EinvoiceProfile, EinvoiceSyntax } from '../sdk/einvoice-contracts.ts'
import type { Registry } from '../sdk/extension-points.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

export const EINVOICE_INPUT = 'einvoice'
/** SPEC 2.4: the `kind` of a render made by POST /v1/einvoices */
export const EINVOICE_KIND = 'einvoice_xml'

/** The `input` an e-invoice render stores: the profile, the syntax (default applied) and the model. */
export interface EinvoiceInput {
  type: typeof EINVOICE_INPUT
  profile: string
  syntax: EinvoiceSyntax
  invoice: EinvoiceModel
}

export function einvoiceInputOf(request: RenderRequest): EinvoiceInput {
  return request.input as unknown as EinvoiceInput
}

/** Where the model sits in the request body: every model problem points below it. */
export const INVOICE_POINTER = '/invoice'

const ajv = new Ajv({ allErrors: true, useDefaults: false, coerceTypes: false, strict: false })
addFormats(ajv)
const compiled = new WeakMap<TObject, ValidateFunction>()

/** The model's problems against the profile's schema, as pointers into the request's `invoice`. */
function modelProblems(schema: TObject, model: unknown, at: string): FieldProblem[] {
  let validate = compiled.get(schema)
  if (!validate) {
    validate = ajv.compile(schema)
    compiled.set(schema, validate)
  }
  if (validate(model)) return []
  return issuesToProblems(validate.errors ?? []).map((p) => ({ ...p, path: `${at}${p.path}` }))
}

/** What names an invoice and its profile: POST /v1/einvoices' body, a render's `output.einvoice`. */
export interface EinvoiceSpec {
  profile: string
  syntax?: EinvoiceSyntax | null
  invoice: EinvoiceModel
}

/**
 * The checks of SPEC 4.3 that need no business rule, run when the render is created (400
 * validation_error, no render made): a profile this installation has, a syntax that profile
 * writes (default: `cii`, which every SPEC profile writes, else the profile's first), and a model
 * that fits the profile's schema. The syntax default is written into the spec. `at` is where the
 * spec sits in the request body ('' for POST /v1/einvoices, `/output/einvoice` on a render).
 */
export function checkEinvoiceSpec(
  spec: EinvoiceSpec,
  profiles: Registry<EinvoiceProfile>,
  at: string,
): EinvoiceProfile {
  const profile = profiles.get(spec.profile)
  if (!profile) {
    const known = profiles.keys()
    throw validationProblem([
      {
        path: `${at}/profile`,
        code: 'enum',
        message:
          known.length > 0
            ? oneOfMessage(known)
            : 'this installation has no e-invoice profile (no plugin registered one)',
      },
    ])
  }
  if (spec.syntax == null) spec.syntax = profile.syntaxes.includes('cii') ? 'cii' : profile.syntaxes[0]!
  if (!profile.syntaxes.includes(spec.syntax)) {
    throw validationProblem([
      {
        path: `${at}/syntax`,
        code: 'enum',
        message: `profile ${profile.id} is written in ${profile.syntaxes.join(' or ')} only: ${oneOfMessage(profile.syntaxes)}`,
      },
    ])
  }
  const problems = modelProblems(profile.modelSchema, spec.invoice, `${at}${INVOICE_POINTER}`)
  if (problems.length > 0) throw validationProblem(problems)
  return profile
}

export function checkEinvoiceRequest(request: RenderRequest, profiles: Registry<EinvoiceProfile>): void {
  checkEinvoiceSpec(einvoiceInputOf(request), profiles, '')
}
