import type { WaitOptions } from '@docsvc/core/sdk'
import { ProblemError, problemFromCause } from '@docsvc/core/sdk'
import type { CDPSession, Page } from 'playwright-core'
import type { PooledPage } from './pooled-page.ts'

const POLL_MS = 100
const OBJECT_GROUP = 'docsvc-wait'

/** When the wait conditions must be met: `deadline` (epoch ms), a budget of `budgetMs` in messages. */
export interface WaitBudget {
  deadline: number
  budgetMs: number
  /** the render's own deadline minus a margin: the delay may run until then */
  renderDeadline: number
}

/**
 * The `wait` conditions after the document has loaded (the loader waited for `until`): the
 * selector, then the expression, all within one budget; then the delay. The same for every
 * input kind (SPEC 7.3 `wait_timeout` when the budget runs out).
 */
export async function waitForConditions(
  { page, cdp }: PooledPage,
  wait: WaitOptions,
  budget: WaitBudget,
): Promise<void> {
  if (wait.selector) await waitForSelector(page, wait.selector, budget)
  if (wait.expression) await waitForExpression(cdp, wait.expression, budget)
  if (wait.delay_ms) {
    const ms = Math.max(0, Math.min(wait.delay_ms, budget.renderDeadline - Date.now()))
    await new Promise((resolve) => setTimeout(resolve, ms))
  }
}

async function waitForSelector(page: Page, selector: string, budget: WaitBudget): Promise<void> {
  const timeout = Math.max(1, budget.deadline - Date.now())
  try {
    await page.waitForSelector(selector, { state: 'attached', timeout })
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError')
      throw new ProblemError(
        'wait_timeout',
        `no element matched ${JSON.stringify(selector)} within ${budget.budgetMs} ms`,
      )
    // the browser's own words go to the log as the cause, never to the client
    throw problemFromCause(
      'validation_error',
      `wait.selector ${JSON.stringify(selector)} is not a selector the page can look up.`,
      err,
      { errors: [{ path: '/input/wait/selector', code: 'invalid', message: 'is not a valid CSS selector' }] },
    )
  }
}

/**
 * Polls the expression in the page's main world through CDP, so it runs in the page's sandbox
 * (never in Node) and no page CSP can block it. Each evaluation is cut off by Chromium at the
 * deadline, so an endless loop in it cannot hold the render past its budget.
 */
async function waitForExpression(cdp: CDPSession, expression: string, budget: WaitBudget): Promise<void> {
  await refuseSyntaxErrors(cdp, expression)
  let lastError: string | undefined
  try {
    for (;;) {
      const left = budget.deadline - Date.now()
      if (left <= 0) break
      const outcome = await evaluateOnce(cdp, expression, left)
      if (outcome === true) return
      if (typeof outcome === 'string') lastError = outcome
      const pause = Math.min(POLL_MS, budget.deadline - Date.now())
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause))
    }
  } finally {
    await cdp.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => {})
  }
  const threw = lastError ? `; it last threw ${lastError}` : ''
  throw new ProblemError(
    'wait_timeout',
    `wait.expression ${JSON.stringify(clip(expression))} was not true within ${budget.budgetMs} ms${threw}`,
  )
}

/** A syntax error never heals: refused at once, naming the page's own message. */
async function refuseSyntaxErrors(cdp: CDPSession, expression: string): Promise<void> {
  // compiling asks for the Runtime domain on this session; it is switched off again at once
  await cdp.send('Runtime.enable')
  let details: ExceptionDetails | undefined
  try {
    const compiled = await cdp.send('Runtime.compileScript', {
      expression,
      sourceURL: 'wait.expression',
      persistScript: false,
    })
    details = compiled.exceptionDetails
  } finally {
    await cdp.send('Runtime.disable').catch(() => {})
  }
  if (!details) return
  throw new ProblemError(
    'validation_error',
    `wait.expression is not valid JavaScript: ${exceptionText(details)}`,
  )
}

type ExceptionDetails = { text: string; exception?: { description?: string } }

/** true when truthy, the page's error text when it threw, false otherwise. */
async function evaluateOnce(
  cdp: CDPSession,
  expression: string,
  timeoutMs: number,
): Promise<boolean | string> {
  let answer: Awaited<ReturnType<typeof evaluate>>
  try {
    answer = await Promise.race([
      evaluate(cdp, expression, timeoutMs),
      // a promise the expression returned that never settles: Chromium's timeout does not cover it
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('deadline')), timeoutMs)),
    ])
  } catch {
    return false
  }
  if (answer.exceptionDetails) return exceptionText(answer.exceptionDetails)
  return isTruthy(answer.result)
}

function evaluate(cdp: CDPSession, expression: string, timeoutMs: number) {
  return cdp.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    objectGroup: OBJECT_GROUP,
    timeout: Math.max(1, Math.ceil(timeoutMs)),
    silent: true,
  })
}

interface RemoteValue {
  type: string
  subtype?: string
  value?: unknown
  unserializableValue?: string
}

/** JavaScript truthiness of a CDP remote object, without copying the value out of the page. */
export function isTruthy(result: RemoteValue): boolean {
  switch (result.type) {
    case 'undefined':
      return false
    case 'object':
      return result.subtype !== 'null'
    case 'number':
    case 'bigint':
      if (result.unserializableValue !== undefined)
        return !['NaN', '-0', '0n', '-0n'].includes(result.unserializableValue)
      return Boolean(result.value)
    default:
      return result.value === undefined ? true : Boolean(result.value)
  }
}

function exceptionText(details: ExceptionDetails): string {
  return clip((details.exception?.description ?? details.text).split('\n')[0] ?? details.text)
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}...` : text
}
