import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { TSchema } from 'typebox'
import { postProcessingProblems } from '../conformance/conformance-options.ts'
import { issuesToProblems, oneOfMessage } from '../http/validation-errors.ts'
import { type Registries, registeredValues } from '../kernel/plugins/extension-points.ts'
import { type FieldProblem, validationProblem } from '../kernel/problem-error.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

/**
 * Plugin-owned parts of a render request (the input object, the format's options) are checked
 * against the schema their plugin registered; unknown input types and formats are
 * validation_error, never a crash (DESIGN.md §4).
 */
export class RenderValidation {
  readonly #registries: Registries
  readonly #inputTypes: () => string[]
  readonly #ajv: Ajv
  readonly #compiled = new WeakMap<TSchema, ValidateFunction>()

  /** `inputTypes`: every type a request may name, listed when it names another */
  constructor(registries: Registries, inputTypes: () => string[] = () => registries.inputs.keys()) {
    this.#registries = registries
    this.#inputTypes = inputTypes
    this.#ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: false })
    addFormats(this.#ajv)
  }

  #check(schema: TSchema, value: unknown, pointer: string): FieldProblem[] {
    let validate = this.#compiled.get(schema)
    if (!validate) {
      validate = this.#ajv.compile(schema)
      this.#compiled.set(schema, validate)
    }
    if (validate(value)) return []
    return issuesToProblems(validate.errors ?? []).map((p) => ({ ...p, path: `${pointer}${p.path}` }))
  }

  /** Throws validation_error listing every problem of the input and the output options. */
  assertValid(
    input: { type: string } & Record<string, unknown>,
    output: { format: string; options: unknown; at: string },
  ) {
    const problems: FieldProblem[] = []
    const plugin = this.#registries.inputs.get(input.type)
    if (!plugin) {
      problems.push({
        path: '/input/type',
        code: 'enum',
        message: oneOfMessage(this.#inputTypes()),
      })
    } else {
      const { type: _type, ...fields } = input
      problems.push(...this.#check(plugin.schema, fields, '/input'))
      // ajv applies schema defaults to `fields`; keep them on the stored input
      Object.assign(input, fields)
    }
    problems.push(...this.#outputProblems(output))
    if (problems.length > 0) throw validationProblem(problems)
  }

  /** Throws validation_error when the format is unknown or its options are wrong. */
  assertOutput(output: { format: string; options: unknown; at: string }) {
    const problems = this.#outputProblems(output)
    if (problems.length > 0) throw validationProblem(problems)
  }

  /**
   * An `engine` must be the one that draws the format (decision 0055): an installation has one
   * engine per output, so naming it changes nothing, and naming another is refused rather than
   * ignored. `format` is undefined for renders whose file no output draws (PDF tools, canvas
   * templates).
   */
  assertEngine(engine: string | null, format: string | undefined) {
    if (engine === null) return
    const drawnBy = format === undefined ? undefined : this.#registries.outputs.get(format)?.engine
    if (engine === drawnBy) return
    throw validationProblem([
      {
        path: '/engine',
        code: 'enum',
        message: drawnBy
          ? `must be "${drawnBy}" (the engine this installation draws ${format} with), or left out`
          : 'this render is not drawn by an engine that can be chosen (a PDF tool or an image_canvas template); leave engine out',
      },
    ])
  }

  #outputProblems(output: { format: string; options: unknown; at: string }): FieldProblem[] {
    const renderer = this.#registries.outputs.get(output.format)
    if (!renderer) {
      return [
        {
          path: '/output/format',
          code: 'enum',
          message: oneOfMessage(this.#registries.outputs.keys()),
        },
      ]
    }
    if (output.options === undefined) return []
    const problems = this.#check(renderer.optionsSchema, output.options, output.at)
    // PDF/A, PDF/UA and the other steps after printing: refused when not installed
    if (output.format === 'pdf' && problems.length === 0) {
      problems.push(
        ...postProcessingProblems(
          registeredValues(this.#registries.pdfPostProcessors),
          output.options as Record<string, unknown>,
          output.at,
          (schema, value, pointer) => this.#check(schema, value, pointer),
        ),
      )
    }
    return problems
  }
}
