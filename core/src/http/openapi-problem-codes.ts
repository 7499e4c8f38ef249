import { PROBLEM_CODES, type ProblemCode } from '../kernel/problem-codes.ts'
import { codesNote, PROBLEM_MEDIA_TYPE } from './schemas/problem-schema.ts'

// Every problem response of the document says which codes it carries: those its route named
// (problemResponse's `codes`), else every code the one table (kernel/problem-codes.ts) gives its
// status. The route declarations say the statuses; the table says the codes; nothing is copied.

type Json = Record<string, unknown>

const codesOfStatus = (status: number): ProblemCode[] =>
  (Object.keys(PROBLEM_CODES) as ProblemCode[]).filter((code) => PROBLEM_CODES[code][0] === status)

/** The codes a description ends with (problemResponse put them there), if it names any. */
function namedCodes(description: string): ProblemCode[] | undefined {
  const note = /\(code ((?:`\w+`(?:, )?)+)\)$/.exec(description)?.[1]
  return note?.split(', ').map((code) => code.slice(1, -1) as ProblemCode)
}

function withCodes(status: string, response: Json): Json {
  const content = response.content as Record<string, { schema?: Json }> | undefined
  const problem = content?.[PROBLEM_MEDIA_TYPE]
  if (!problem?.schema) return response
  const description = String(response.description ?? '')
  const named = namedCodes(description)
  const codes = named ?? codesOfStatus(Number(status))
  if (codes.length === 0) return response
  return {
    ...response,
    description: named ? description : `${description} ${codesNote(codes)}`,
    content: {
      ...content,
      [PROBLEM_MEDIA_TYPE]: {
        ...problem,
        schema: {
          ...problem.schema,
          properties: { code: { enum: codes, description: 'The codes this response carries.' } },
        },
      },
    },
  }
}

/** The document with each operation's problem responses naming their codes. */
export function documentProblemCodes<T>(document: T): T {
  const doc = document as Json
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>
  const filled = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          const responses = operation.responses as Record<string, Json> | undefined
          if (!responses || typeof responses !== 'object') return [method, operation]
          const documented = Object.fromEntries(
            Object.entries(responses).map(([status, response]) => [status, withCodes(status, response)]),
          )
          return [method, { ...operation, responses: documented }]
        }),
      ),
    ]),
  )
  return { ...doc, paths: filled } as T
}
