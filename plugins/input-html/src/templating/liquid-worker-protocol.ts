import type { RenderWarning } from '@docsvc/core/sdk'
import type { TemplateErrorInfo } from './template-error.ts'

// Messages between the caller's thread and a Liquid worker. Everything is structured-cloned, so
// only plain data crosses: errors travel as TemplateErrorInfo, never as Error objects.

export interface LiquidJob {
  id: number
  source: string
  data: Record<string, unknown>
  partials: Record<string, string>
  strictVariables: boolean
  /** default locale of the document filters */
  locale: string | undefined
  parseChars: number
  renderMs: number
  memory: number
  outputChars: number
}

export type LiquidReply =
  | { id: number; output: string; warnings: RenderWarning[] }
  | { id: number; error: TemplateErrorInfo; partial?: string }

/** The worker's first message: it has loaded and takes jobs. */
export const WORKER_READY = 'ready'
