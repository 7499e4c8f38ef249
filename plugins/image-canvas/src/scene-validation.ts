import { ProblemError } from '@docsvc/core/sdk'
import { type TSchema, Type } from 'typebox'
import { Compile } from 'typebox/compile'
import type { CanvasFormat } from './encode-output.ts'
import { pointerToken } from './json-pointer.ts'
import {
  COLOR_PATTERN,
  LAYER_SCHEMAS,
  LAYER_TYPES,
  type LayerType,
  MAX_CANVAS_SIDE,
  MAX_LAYERS,
  NAME_PATTERN,
  type Scene,
  SceneSchema,
} from './scene-schema.ts'

/** One problem of a scene, as SPEC 7.1 `errors[]` (path: JSON Pointer into the scene). */
export interface SceneProblem {
  path: string
  code: string
  message: string
}

const MAX_REPORTED = 100

// The scene without its layers' details: each layer is then checked against its own type's
// schema, so a typo in one layer reports that field, not "matches no variant of the union".
const ShellSchema = Type.Object(
  {
    ...SceneSchema.properties,
    layers: Type.Array(Type.Object({ type: Type.String(), name: Type.String() }), { maxItems: MAX_LAYERS }),
  },
  { additionalProperties: false },
)

type Checker = ReturnType<typeof Compile<TSchema>>
const shellChecker = Compile(ShellSchema)
const layerCheckers = new Map<string, Checker>(
  LAYER_TYPES.map((type) => [type, Compile(LAYER_SCHEMAS[type] as TSchema)]),
)

/** The compiled schema of a layer type. */
export function layerChecker(type: string): Checker | undefined {
  return layerCheckers.get(type)
}

/** Properties data may set on a layer of this type (everything but its name and type). */
export function layerProperties(type: LayerType): string[] {
  return Object.keys(LAYER_SCHEMAS[type].properties).filter((key) => key !== 'name' && key !== 'type')
}

/** Every problem of the scene; empty when it can be rendered. */
export function sceneProblems(scene: unknown): SceneProblem[] {
  if (typeof scene !== 'object' || scene === null || Array.isArray(scene))
    return [{ path: '', code: 'type', message: 'must be an object' }]
  const problems = toProblems(shellChecker.Errors(scene), '')
  const layers = (scene as { layers?: unknown }).layers
  if (Array.isArray(layers)) {
    const names = new Map<string, number>()
    layers.slice(0, MAX_LAYERS).forEach((layer: unknown, i) => {
      const at = `/layers/${i}`
      if (typeof layer !== 'object' || layer === null) return
      const { type, name } = layer as { type?: unknown; name?: unknown }
      const checker = typeof type === 'string' ? layerCheckers.get(type) : undefined
      if (!checker) {
        if (typeof type === 'string')
          problems.push({
            path: `${at}/type`,
            code: 'enum',
            message: `must be one of ${quoted(LAYER_TYPES)}`,
          })
        return
      }
      problems.push(...toProblems(checker.Errors(layer), at))
      if (typeof name === 'string') {
        const first = names.get(name)
        if (first !== undefined)
          problems.push({
            path: `${at}/name`,
            code: 'duplicate',
            message: `"${name}" is already the name of layer ${first}`,
          })
        else names.set(name, i)
      }
      problems.push(...requiredProblems(layer, type as LayerType, at))
    })
  }
  return problems.slice(0, MAX_REPORTED)
}

/** Throws 422 scene_invalid listing every problem of the scene. */
export function validateScene(scene: unknown): asserts scene is Scene {
  const problems = sceneProblems(scene)
  if (problems.length === 0) return
  const first = problems[0] as SceneProblem
  throw new ProblemError('scene_invalid', `Scene cannot be rendered: ${first.path || '/'} ${first.message}`, {
    errors: problems,
  })
}

/** The raster resvg would draw: output pixels per side (the scale already applied) and where they come from. */
export interface OutputRaster {
  width: number
  height: number
  /** JSON Pointer of what set the size: the scene's `/width`, or '' when the request's image options did */
  path: string
}

/** WebP stores each side in 14 bits: one pixel short of SPEC 8's canvas side. */
const WEBP_MAX_SIDE = 16_383

/**
 * Throws scene_invalid when the raster would exceed SPEC 8's size per side (WebP's, a pixel
 * less), or the installation's pixel budget (DOCSVC_CANVAS_MAX_PIXELS): checked before anything
 * is drawn, since a 16,384 px square is a 1 GiB pixmap (docs/decisions/0031-canvas-pixel-budget.md).
 */
export function assertOutputSize(raster: OutputRaster, format: CanvasFormat, maxPixels: number): void {
  const { width, height, path } = raster
  const maxSide = format === 'webp' ? WEBP_MAX_SIDE : MAX_CANVAS_SIDE
  if (width > maxSide || height > maxSide) {
    const canvas = format === 'webp' ? 'a WebP canvas' : 'a canvas'
    throw new ProblemError(
      'scene_invalid',
      `The output would be ${width}x${height} pixels; ${canvas} is at most ${maxSide} pixels per side`,
      { errors: [{ path, code: 'maximum', message: `output side over ${maxSide} pixels` }] },
    )
  }
  const total = width * height
  if (total <= maxPixels) return
  const budget = `${grouped(maxPixels)} pixels (DOCSVC_CANVAS_MAX_PIXELS)`
  throw new ProblemError(
    'scene_invalid',
    `The output would be ${width}x${height} = ${grouped(total)} pixels; this installation draws at most ${budget}`,
    { errors: [{ path, code: 'maximum', message: `output of ${grouped(total)} pixels over ${budget}` }] },
  )
}

const grouped = (n: number) => n.toLocaleString('en-US')

function requiredProblems(layer: object, type: LayerType, at: string): SceneProblem[] {
  const required = (layer as { required?: unknown }).required
  if (!Array.isArray(required)) return []
  const known = layerProperties(type).filter((p) => p !== 'required')
  return required.flatMap((property, j) =>
    typeof property === 'string' && !known.includes(property)
      ? [
          {
            path: `${at}/required/${j}`,
            code: 'enum',
            message: `must be a ${type} layer property: ${quoted(known)}`,
          },
        ]
      : [],
  )
}

export interface Issue {
  keyword: string
  instancePath: string
  message: string
  params: Record<string, unknown>
}

const PATTERN_MEANING: Record<string, string> = {
  [COLOR_PATTERN]: 'must be a colour: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba() or transparent',
  [NAME_PATTERN]: 'must start with a letter or _ and hold at most 64 letters, digits, _ and -',
}

/** typebox's message, in words where it would show a regular expression. */
export function issueMessage(issue: Issue): string {
  if (issue.keyword === 'pattern') return PATTERN_MEANING[issue.params.pattern as string] ?? issue.message
  return issue.message
}

/** typebox's issues as FieldProblems: literal unions folded into one `enum` problem. */
function toProblems(issues: Iterable<Issue>, prefix: string): SceneProblem[] {
  const out: SceneProblem[] = []
  const allowed = new Map<string, unknown[]>()
  for (const issue of issues) {
    const path = prefix + issue.instancePath
    switch (issue.keyword) {
      case 'boolean': // the additionalProperties: false twin of the next case
        break
      case 'additionalProperties':
        for (const name of (issue.params.additionalProperties as string[] | undefined) ?? [])
          out.push({
            path: `${path}/${pointerToken(name)}`,
            code: 'unknown_field',
            message: 'is not a known field',
          })
        break
      case 'required':
        for (const name of (issue.params.requiredProperties as string[] | undefined) ?? [])
          out.push({ path: `${path}/${pointerToken(name)}`, code: 'required', message: 'is required' })
        break
      case 'const':
        allowed.set(path, [...(allowed.get(path) ?? []), issue.params.allowedValue])
        break
      case 'anyOf':
        if (!allowed.has(path)) out.push({ path, code: 'anyOf', message: issue.message })
        break
      default:
        out.push({ path, code: issue.keyword, message: issueMessage(issue) })
    }
  }
  for (const [path, values] of allowed)
    out.push({ path, code: 'enum', message: `must be one of ${quoted(values)}` })
  return out
}

function quoted(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ')
}
