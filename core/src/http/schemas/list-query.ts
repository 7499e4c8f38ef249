import { Type } from 'typebox'

// The paging parameters every list takes, described once.

/** `example`: a `next_cursor` of the list (the id, or number, of a page's last item). */
export const Cursor = (example: string) =>
  Type.String({
    maxLength: 100,
    description: 'Where the page starts: the `next_cursor` of the previous page.',
    examples: [example],
  })

export const Limit = Type.Integer({
  minimum: 1,
  maximum: 100,
  default: 50,
  description: 'How many items a page holds (1 to 100, default 50).',
  examples: [20],
})
