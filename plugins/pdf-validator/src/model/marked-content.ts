import { isName, type Operand } from './content-stream.ts'
import type { ModelObject, ModelTypes } from './model-object.ts'
import type { DrawnContent, PageUse } from './page-resources.ts'
import type { Values } from './pdf-values.ts'

// Marked-content sequences (ISO 32000-1 14.6; ISO 14289-1 7.1): their tag, whether they are
// tagged content (an MCID, here or in an enclosing sequence) and the tags that enclose them, so
// that artifacts and tagged content do not nest in each other.

export const MARKED_CONTENT_TYPES: ModelTypes = {
  SEMarkedContent: { props: ['tag', 'isTaggedContent', 'parentsTags'] },
}

interface Open {
  tag: string
  tagged: boolean
}

/** sequences kept per content stream: a bound for hostile files */
const MAX_PER_STREAM = 100_000

/** Whether a BDC's property list (inline or named in the resources) gives an MCID. */
function markedWithMcid(v: Values, c: DrawnContent, props: Operand | undefined): boolean {
  if (props && typeof props === 'object' && 'dict' in props) return typeof props.dict.MCID === 'number'
  if (isName(props)) return v.has(v.dict(v.dict(c.resources, 'Properties'), props.name), 'MCID')
  return false
}

/** Whether a content stream itself marks content with an MCID (is a semantic parent). */
export function containsMcid(v: Values, c: DrawnContent): boolean {
  return c.ops.some(({ op, operands }) => op === 'BDC' && markedWithMcid(v, c, operands[1]))
}

export function markedContentObjects(v: Values, use: PageUse): ModelObject[] {
  const out: ModelObject[] = []
  for (const c of use.contents) {
    const open: Open[] = []
    let count = 0
    const hasMcid = (props: Operand | undefined) => markedWithMcid(v, c, props)
    for (const { op, operands } of c.ops) {
      if (op === 'BMC' || op === 'BDC') {
        const tag = isName(operands[0]) ? operands[0].name : ''
        const tagged = (op === 'BDC' && hasMcid(operands[1])) || open.some((o) => o.tagged)
        if (count++ < MAX_PER_STREAM) {
          out.push({
            type: 'SEMarkedContent',
            page: c.page,
            context: `page ${c.page} marked content /${tag}`,
            props: { tag, isTaggedContent: tagged, parentsTags: open.map((o) => o.tag) },
          })
        }
        open.push({ tag, tagged })
      } else if (op === 'EMC') open.pop()
    }
  }
  return out
}
