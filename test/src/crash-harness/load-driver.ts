// A steady load of renders against the API, as clients send it: a few loops, each posting a
// render, then pausing. What counts later is what the client saw: a render is accepted when an
// answer naming it came back (201/202 queued, 200 a finished sync render, or a sync render's
// failure as a problem with its render_id). A refused connection (the API is down) or a dropped one
// (killed mid-answer) is not accepted; the loop waits a moment and goes on.

export interface LoadOptions {
  baseUrl: string
  key: string
  /** loops sending at once */
  loops: number
  /** pause after each answer */
  pauseMs: number
  /** the body of the n-th render */
  body(n: number): object
  /** per request; a hung connection to a killed process ends here */
  requestTimeoutMs?: number
}

export interface LoadFigures {
  sent: number
  accepted: number
  /** no answer: connection refused, reset or timed out */
  unanswered: number
  /** answers naming no render (refused before one was made: 401, 429, ...), by status */
  statuses: Record<number, number>
}

export class LoadDriver {
  readonly #options: LoadOptions
  /** render ids the client got a 201/202 for, in order */
  readonly accepted: string[] = []
  readonly figures: LoadFigures = { sent: 0, accepted: 0, unanswered: 0, statuses: {} }
  #stopping = false
  #loops: Promise<void>[] = []
  #n = 0

  constructor(options: LoadOptions) {
    this.#options = options
  }

  start(): void {
    for (let i = 0; i < this.#options.loops; i++) this.#loops.push(this.#loop())
  }

  async stop(): Promise<LoadFigures> {
    this.#stopping = true
    await Promise.all(this.#loops)
    return this.figures
  }

  async #loop(): Promise<void> {
    const { baseUrl, key, pauseMs, requestTimeoutMs = 10_000 } = this.#options
    while (!this.#stopping) {
      const n = this.#n++
      this.figures.sent++
      try {
        const res = await fetch(`${baseUrl}/v1/renders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(this.#options.body(n)),
          signal: AbortSignal.timeout(requestTimeoutMs),
        })
        const id = renderIdOf(res.status, await res.text())
        if (id) {
          this.accepted.push(id)
          this.figures.accepted++
        } else {
          this.figures.statuses[res.status] = (this.figures.statuses[res.status] ?? 0) + 1
        }
      } catch {
        this.figures.unanswered++
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
  }
}

/** The render an answer names: its id when created (2xx), its render_id when a problem says it failed. */
function renderIdOf(status: number, text: string): string | undefined {
  let body: { id?: unknown; render_id?: unknown }
  try {
    body = JSON.parse(text)
  } catch {
    return undefined
  }
  if (status >= 200 && status < 300 && typeof body.id === 'string') return body.id
  if (status >= 400 && typeof body.render_id === 'string') return body.render_id
  return undefined
}
