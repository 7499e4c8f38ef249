import type { RenderWarning } from '@docsvc/core/sdk'
import type { TemplateErrorInfo } from './template-error.ts'

// A Liquid task and its answer, between the caller's thread and a WorkerPool thread. Everything
// is structured-cloned, so only plain data crosses: errors travel as TemplateErrorInfo.

export interface LiquidJob {
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
  | { output: string; warnings: RenderWarning[] }
  | { error: TemplateErrorInfo; partial?: string }
