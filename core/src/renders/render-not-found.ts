import { ProblemError } from '../kernel/problem-error.ts'

/**
 * 404 for a render id this key cannot see. Test and live renders are apart (SPEC Part 5): a key
 * sees only renders of its own mode, so the hint names the other mode whatever the id is; it
 * reads the same whether or not such a render exists, so it confirms nothing.
 */
export function renderNotFound(id: string, test: boolean): ProblemError {
  const [mine, other] = test ? ['test', 'live'] : ['live', 'test']
  return new ProblemError(
    'render_not_found',
    `No render ${id} for this ${mine} key. A ${mine} key sees only renders made with ${mine} keys; a render made with a ${other} key is read with a ${other} key.`,
  )
}
