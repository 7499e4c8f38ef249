import type { Context } from 'liquidjs'
import { isBlank, wholeArgument } from './filter-arguments.ts'

// wide enough for any column of a document; liquidjs' memory budget is charged on top
const MAX_WIDTH = 100_000

type Side = 'start' | 'end'

/** pad_start and pad_end: `{{ 42 | pad_start: 5, '0' }}` -> `00042` (fill defaults to a space). */
export const TEXT_FILTERS = {
  pad_start(this: { context: Context }, value: unknown, width?: unknown, fill?: unknown): string {
    return pad(this.context, 'start', value, width, fill)
  },
  pad_end(this: { context: Context }, value: unknown, width?: unknown, fill?: unknown): string {
    return pad(this.context, 'end', value, width, fill)
  },
}

function pad(context: Context, side: Side, value: unknown, width: unknown, fill: unknown): string {
  const text = isBlank(value) ? '' : String(value)
  const length = wholeArgument(`pad_${side}`, 'width', width, 0, MAX_WIDTH)
  const filler = isBlank(fill) ? ' ' : String(fill)
  context.memoryLimit.use(length - text.length)
  return side === 'start' ? text.padStart(length, filler) : text.padEnd(length, filler)
}
