import type { ValidateFunction } from 'ajv'
import type { TObject } from 'typebox'
import type { AjvIssue } from '../http/alternative-issues.ts'
import { issuesToProblems } from '../http/validation-errors.ts'
import { makeAjv } from '../http/validator.ts'
import type { FieldProblem } from '../kernel/problem-error.ts'
import type { StorageProviderFactory } from '../sdk/storage-contracts.ts'

// A destination's `config` and `credentials` are checked by the schemas its provider declares
// (SPEC 2.8 "provider specific"), with the same validator and the same problem wording as
// request bodies, every problem under its JSON pointer in the request (`/config/bucket`).

const ajv = makeAjv(false)
const compiled = new WeakMap<TObject, ValidateFunction>()

function validatorOf(schema: TObject): ValidateFunction {
  let validate = compiled.get(schema)
  if (!validate) {
    validate = ajv.compile(schema)
    compiled.set(schema, validate)
  }
  return validate
}

/**
 * The value with the schema's defaults filled in, or the problems under `pointer`. Credentials
 * problems never repeat a value: the validator's messages name the rule, not what was sent.
 */
export function checkProviderSettings(
  schema: TObject,
  value: object,
  pointer: '/config' | '/credentials',
  provider: string,
): { value: Record<string, unknown>; problems: FieldProblem[] } {
  const copy = structuredClone(value) as Record<string, unknown>
  const validate = validatorOf(schema)
  if (validate(copy)) return { value: copy, problems: [] }
  const problems = issuesToProblems((validate.errors ?? []) as AjvIssue[]).map((p) => ({
    ...p,
    path: `${pointer}${p.path}`,
    message:
      p.code === 'unknown_field'
        ? `is not a ${pointer === '/config' ? 'setting' : 'credential'} of provider ${provider}`
        : p.message,
  }))
  return { value: copy, problems }
}

/** The factory for `provider`, or the problem that lists the installed kinds. */
export function providerProblem(
  providers: { get(key: string): StorageProviderFactory | undefined; keys(): string[] },
  provider: string,
): FieldProblem | undefined {
  if (providers.get(provider)) return undefined
  const installed = providers.keys()
  return {
    path: '/provider',
    code: 'unknown_provider',
    message:
      installed.length > 0
        ? `${JSON.stringify(provider.slice(0, 60))} is not an installed storage provider; installed: ${installed.join(', ')}`
        : 'no storage provider is installed on this installation',
  }
}
