import type { RegExpEngine } from 'ajv/dist/types/index.js'
import { RE2JS } from 're2js'

/**
 * The regex engine for tenants' data schemas (`pattern`, `patternProperties`): RE2, whose
 * matching time grows linearly with the input. JavaScript's engine backtracks, so one pattern
 * such as `^(a+)+$` against 40 characters held the event loop, and every request with it, for
 * hours. RE2 has no lookaround and no backreferences; a schema that uses them is refused when
 * the template is published, with RE2's own message.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(pattern)
    return {
      // JSON Schema patterns are not anchored: a match anywhere in the string counts
      test: (text: string) => compiled.matcher(text).find(),
      // ajv keys its compiled patterns by this text; without it every pattern was the first one
      toString: () => `/${pattern}/`,
    }
  },
  // ajv's standalone code generation names the engine by this expression; we never generate it
  { code: 'linearRegExp' },
)
