import { Ajv } from 'ajv'
import { issuesToProblems } from '../http/validation-errors.ts'
import { validationProblem } from '../kernel/problem-error.ts'
import { TemplateInputSchema } from '../renders/render-schemas.ts'
import type { TemplateRef } from './template-renders.ts'

const validate = new Ajv({ allErrors: true, strict: false }).compile(TemplateInputSchema)

/** The template reference of `POST /v1/renders` (`input` plus `overrides`); 400 with `/input/...` pointers. */
export function templateRefOf(
  input: Record<string, unknown>,
  overrides: Record<string, unknown>[] | null | undefined,
): TemplateRef {
  if (!validate(input)) {
    throw validationProblem(
      issuesToProblems(validate.errors ?? []).map((p) => ({ ...p, path: `/input${p.path}` })),
    )
  }
  const { template_id, version, dataset_id } = input as TemplateRef
  return { template_id, version, dataset_id, overrides, datasetPointer: '/input/dataset_id' }
}
