// Test helpers only: a PDF read back the way a checker reads it, independently of the code under
// test: qpdf's JSON for objects and the structure tree, qpdf's QDF form for content streams.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export interface QpdfObjects {
  /** an object's value by reference (`12 0 R`), or a direct value as it is */
  get(ref: Json | undefined): Json | undefined
  catalog: Record<string, Json>
  info: Record<string, Json>
  pages: string[]
}

function withFile<T>(bytes: Buffer, use: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-pdfua-'))
  try {
    const file = path.join(dir, 'in.pdf')
    writeFileSync(file, bytes)
    return use(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function qpdfObjects(bytes: Buffer): QpdfObjects {
  const json = withFile(bytes, (file) =>
    JSON.parse(
      execFileSync('qpdf', ['--json', '--json-stream-data=none', file], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      }),
    ),
  )
  const objects = json.qpdf[1] as Record<string, { value?: Json; stream?: { dict: Json } }>
  const get = (ref: Json | undefined): Json | undefined => {
    if (typeof ref === 'string' && / \d+ R$/.test(ref)) {
      const entry = objects[`obj:${ref}`]
      return entry?.value ?? entry?.stream?.dict
    }
    return ref
  }
  const trailer = (objects.trailer?.value ?? {}) as Record<string, Json>
  return {
    get,
    catalog: get(trailer['/Root']) as Record<string, Json>,
    info: (get(trailer['/Info']) ?? {}) as Record<string, Json>,
    pages: (json.pages as { object: string }[]).map((p) => p.object),
  }
}

/** qpdf's text for a string value (`u:…` unicode or `b:…` hex bytes) */
export function qpdfText(value: Json | undefined): string | undefined {
  if (typeof value !== 'string') return undefined
  if (value.startsWith('u:')) return value.slice(2)
  if (value.startsWith('b:')) return Buffer.from(value.slice(2), 'hex').toString('latin1')
  return value
}

export interface StructNode {
  type: string
  alt?: string
  kids: StructNode[]
}

/** the structure tree as element types and Alt, from qpdf's JSON */
export function structureTree(bytes: Buffer): StructNode[] {
  const q = qpdfObjects(bytes)
  const root = q.get(q.catalog['/StructTreeRoot']) as Record<string, Json> | undefined
  const seen = new Set<string>()
  const walk = (node: Json | undefined): StructNode[] => {
    if (typeof node === 'string' && seen.has(node)) return []
    if (typeof node === 'string') seen.add(node)
    const value = q.get(node)
    if (Array.isArray(value)) return value.flatMap(walk)
    if (!value || typeof value !== 'object' || typeof value['/S'] !== 'string') return []
    const alt = qpdfText(value['/Alt'])
    return [
      {
        type: (value['/S'] as string).slice(1),
        ...(alt !== undefined ? { alt } : {}),
        kids: walk(value['/K']),
      },
    ]
  }
  return root ? walk(root['/K']) : []
}

export function flatTypes(nodes: StructNode[]): string[] {
  return nodes.flatMap((n) => [n.type, ...flatTypes(n.kids)])
}

/**
 * Painting operators of each page outside every marked-content sequence, read line by line
 * from qpdf's QDF form (Chromium writes one operator per line; inline images are not used).
 */
export function unmarkedPainting(bytes: Buffer): { page: number; op: string }[] {
  return pageContents(bytes).flatMap((stream, i) => {
    const found: { page: number; op: string }[] = []
    let depth = 0
    for (const line of stream.split('\n')) {
      // the last token: Chromium writes `<</MCID 0 >>BDC` without a space
      const op =
        line
          .trim()
          .split(/[\s>]+/)
          .pop() ?? ''
      if (op === 'BDC' || op === 'BMC') depth++
      else if (op === 'EMC') depth--
      else if (depth === 0 && /^(Tj|TJ|Do|f|f\*|S|B|sh)$/.test(op)) found.push({ page: i + 1, op })
    }
    return found
  })
}

/** each page's content as QDF text */
export function pageContents(bytes: Buffer): string[] {
  const qdf = withFile(bytes, (file) => {
    const out = `${file}.qdf`
    execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, out])
    return readFileSync(out, 'latin1')
  })
  const pages = qdf.split(/%% Contents for page \d+\n/).slice(1)
  return pages.map((p) => p.split('\nstream\n')[1]!.split('\nendstream')[0]!)
}

/**
 * Whether the parent tree agrees with the pages (ISO 32000-1 §14.7.4.4): for each page's
 * /StructParents, the entry exists and each element it lists has its content on that page; each
 * annotation's /StructParent names an element with an OBJR to it. The problems, empty when none.
 */
export function parentTreeProblems(bytes: Buffer): string[] {
  const q = qpdfObjects(bytes)
  const root = q.get(q.catalog['/StructTreeRoot']) as Record<string, Json> | undefined
  if (!root) return ['no StructTreeRoot']
  const entries = new Map<number, Json>()
  const visit = (node: Json | undefined) => {
    const dict = q.get(node) as Record<string, Json> | undefined
    const nums = (q.get(dict?.['/Nums']) ?? []) as Json[]
    for (let i = 0; i + 1 < nums.length; i += 2) entries.set(nums[i] as number, nums[i + 1]!)
    for (const kid of (q.get(dict?.['/Kids']) ?? []) as Json[]) visit(kid)
  }
  visit(root['/ParentTree'])
  const problems: string[] = []
  const pageOf = (element: Json): Json | undefined => {
    const dict = q.get(element) as Record<string, Json> | undefined
    if (!dict) return undefined
    if (dict['/Pg']) return dict['/Pg']
    const kids = q.get(dict['/K'])
    for (const kid of Array.isArray(kids) ? kids : [kids]) {
      const k = q.get(kid) as Record<string, Json> | undefined
      if (k && typeof k === 'object' && k['/Pg']) return k['/Pg']
    }
    return dict['/P'] === undefined ? undefined : pageOf(dict['/P'])
  }
  for (const [i, page] of q.pages.entries()) {
    const dict = q.get(page) as Record<string, Json>
    const key = dict['/StructParents']
    if (typeof key === 'number') {
      const list = q.get(entries.get(key))
      if (!Array.isArray(list)) problems.push(`page ${i + 1}: StructParents ${key} has no parent tree entry`)
      else
        for (const element of list)
          if (element !== null && pageOf(element) !== page)
            problems.push(`page ${i + 1}: parent tree entry ${key} lists an element of another page`)
    }
    for (const annot of (q.get(dict['/Annots']) ?? []) as Json[]) {
      const key = (q.get(annot) as Record<string, Json>)['/StructParent']
      if (typeof key !== 'number') continue
      const element = q.get(entries.get(key)) as Record<string, Json> | undefined
      const kids = q.get(element?.['/K'])
      const objrs = (Array.isArray(kids) ? kids : [kids]).map(
        (k) => (q.get(k) as Record<string, Json>)?.['/Obj'],
      )
      if (!objrs.includes(annot))
        problems.push(`page ${i + 1}: annotation ${annot} is not its element's OBJR`)
    }
  }
  return problems
}

/** the pages (1-based) the content of each element of a type is on */
export function elementPages(bytes: Buffer, type: string): number[] {
  const q = qpdfObjects(bytes)
  const root = q.get(q.catalog['/StructTreeRoot']) as Record<string, Json> | undefined
  const found: number[] = []
  const seen = new Set<Json>()
  const walk = (node: Json | undefined, page: Json | undefined) => {
    if (typeof node === 'string') {
      if (seen.has(node)) return
      seen.add(node)
    }
    const value = q.get(node)
    if (Array.isArray(value)) {
      for (const kid of value) walk(kid, page)
      return
    }
    if (!value || typeof value !== 'object' || typeof value['/S'] !== 'string') return
    const own = value['/Pg'] ?? page
    if (value['/S'] === `/${type}`) {
      const kids = q.get(value['/K'])
      const first = (Array.isArray(kids) ? kids : [kids]).map((k) => q.get(k) as Record<string, Json>)[0]
      const pg = own ?? first?.['/Pg']
      found.push(q.pages.indexOf(pg as string) + 1)
    }
    walk(value['/K'], own)
  }
  walk(root?.['/K'], undefined)
  return found
}
