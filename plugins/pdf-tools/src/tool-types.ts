import type { PdfTool } from '@docsvc/core/sdk'

// The PdfTool contract's parts, named for this package (the SDK exports the contract itself).
export type PdfToolSource = Parameters<PdfTool['run']>[0][number]
export type PdfToolContext = Parameters<PdfTool['run']>[2]
export type PdfToolOutput = Awaited<ReturnType<PdfTool['run']>>
export type PdfToolFile = PdfToolOutput['files'][number]
export type FieldProblem = ReturnType<NonNullable<PdfTool['check']>>[number]
export type ToolOptions = Record<string, unknown>
