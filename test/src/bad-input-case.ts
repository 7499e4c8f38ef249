import { type ProblemExpectation, problemViolations } from './problem-check.ts'
import { inParallel, type WireResponse } from './wire-client.ts'

export interface BadInputTarget {
  port: number
  base: string
  /** a valid test key of a Scale workspace */
  key: string
}

export interface BadInputCase {
  label: string
  send(): Promise<WireResponse>
  /** any 4xx problem when left out */
  expect?: ProblemExpectation
  /** further checks on the problem body */
  check?(res: WireResponse): string[]
  /** a 2xx is also a correct answer (input that is odd but not wrong) */
  mayPass?: boolean
}

/**
 * Sends every case (`width` at a time) and returns what was wrong with the answers, one line
 * per violation, labelled with the seed and the case, so a failing run can be replayed.
 */
export async function runBarrage(cases: BadInputCase[], seed: number, width = 12): Promise<string[]> {
  const results = await inParallel(
    cases.map((c, index) => async () => {
      const where = `[seed ${seed} #${index} ${c.label}]`
      let res: WireResponse
      try {
        res = await c.send()
      } catch (err) {
        return [`${where} ${(err as Error).message}`]
      }
      if (c.mayPass && res.status >= 200 && res.status < 300) return []
      const found = problemViolations(res, c.expect)
      if (found.length === 0 && c.check) found.push(...c.check(res))
      return found.map((v) => `${where} ${v}`)
    }),
    width,
  )
  return results.flat()
}
