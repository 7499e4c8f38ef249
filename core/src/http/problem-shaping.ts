import type { FastifyRequest } from 'fastify'
import { type FieldProblem, ProblemError } from '../kernel/problem-error.ts'
import { suggestField } from './field-suggestions.ts'

/**
 * How a route's problems are put in the words of its request. A convenience endpoint rewrites
 * its flat body into the general render (`url` becomes `input.url`, `pdf` becomes `output.pdf`);
 * what fails in that shape is reported at the fields the client sent.
 */
export interface ProblemShape {
  /** internal pointer prefixes and what the client sent instead (`['/input', '']`) */
  pointers?: readonly (readonly [internal: string, sent: string])[]
  /** the body's whole field tree, plugin option schemas included; default the route's body schema */
  fields?: () => unknown
}

declare module 'fastify' {
  interface FastifyContextConfig {
    problemShape?: ProblemShape
  }
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~')
}

function mapPointer(path: string, pointers: ProblemShape['pointers']): string {
  for (const [internal, sent] of pointers ?? []) {
    if (path === internal || path.startsWith(`${internal}/`)) return `${sent}${path.slice(internal.length)}`
  }
  return path
}

function summaryOf(problem: FieldProblem): string {
  return `${problem.path || '/'}: ${problem.message}`
}

/** One problem with its pointer mapped and, for an unknown field, the field it likely meant. */
function shapeField(
  problem: FieldProblem,
  shape: ProblemShape | undefined,
  tree: () => unknown,
): FieldProblem {
  const path = mapPointer(problem.path, shape?.pointers)
  if (problem.code !== 'unknown_field' || /did you mean/.test(problem.message)) return { ...problem, path }
  const tokens = path.split('/').slice(1).map(unescapeToken)
  const sent = tokens.pop()
  const meant = sent === undefined ? undefined : suggestField(tree(), tokens, sent)
  return meant
    ? { ...problem, path, message: `${problem.message}; did you mean ${meant}?` }
    : { ...problem, path }
}

/**
 * The one place a problem's field pointers and unknown-field hints are finished, on the way out
 * of any route: `errors[]`, a failed render's `render_error.errors`, and a `detail` that only
 * repeats the first error.
 */
export function shapeProblem(problem: ProblemError, request: FastifyRequest): ProblemError {
  const { errors, render_error: renderError } = problem.extras as {
    errors?: FieldProblem[]
    render_error?: { errors?: FieldProblem[] }
  }
  if (!errors?.length && !renderError?.errors?.length) return problem
  const shape = request.routeOptions?.config?.problemShape
  const schema = request.routeOptions?.schema as { body?: unknown; querystring?: unknown } | undefined
  let bodyTree: unknown
  const trees = {
    body: () => {
      bodyTree ??= shape?.fields?.() ?? schema?.body
      return bodyTree
    },
    query: () => schema?.querystring,
  }
  const shapeAll = (list: FieldProblem[] | undefined) =>
    list?.map((p) =>
      p.in === 'query' ? shapeField(p, undefined, trees.query) : p.in ? p : shapeField(p, shape, trees.body),
    )
  const shaped = shapeAll(errors)
  const first = errors?.[0]
  const detail =
    first && shaped?.[0] && problem.detail === summaryOf(first) ? summaryOf(shaped[0]) : problem.detail
  return new ProblemError(problem.code, detail, {
    ...problem.extras,
    ...(shaped ? { errors: shaped } : {}),
    ...(renderError?.errors
      ? { render_error: { ...renderError, errors: shapeAll(renderError.errors) } }
      : {}),
  })
}
