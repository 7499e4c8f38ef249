// Test helper only: a PDF's objects as qpdf reads them (qpdf --json, version 2), so tests check
// what any reader sees, not what pdf-lib believes it wrote.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type PdfDict = Record<string, Json>

export interface PdfStructure {
  trailer: PdfDict
  catalog: PdfDict
  /** every object's dictionary (a stream's own), by `12 0 R` */
  dicts: Map<string, PdfDict>
  /** follows a `12 0 R` reference; other values are returned as they are */
  resolve(value: Json | undefined): Json | undefined
  /** a stream's data, decoded */
  streamBytes(ref: string): Buffer
  /** the header line and the comment line after it */
  head: Buffer
}

export function pdfStructure(bytes: Buffer): PdfStructure {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-pdf-structure-'))
  const file = path.join(dir, 'in.pdf')
  writeFileSync(file, bytes)
  try {
    const run = spawnSync('qpdf', ['--json', '--json-key=qpdf', '--json-stream-data=none', file], {
      maxBuffer: 1 << 28,
    })
    // exit 3: warnings only (a file of odd objects still has a JSON reading)
    if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf --json: ${run.stderr}`)
    const json = JSON.parse(run.stdout.toString()) as {
      qpdf: [unknown, Record<string, { value?: Json; stream?: { dict: PdfDict } }>]
    }
    const objects = json.qpdf[1]
    const dicts = new Map<string, PdfDict>()
    for (const [key, object] of Object.entries(objects)) {
      const dict = object.stream?.dict ?? object.value
      if (dict && typeof dict === 'object' && !Array.isArray(dict)) dicts.set(key.replace(/^obj:/, ''), dict)
    }
    const resolve = (value: Json | undefined): Json | undefined => {
      if (typeof value === 'string' && / \d+ R$/.test(value)) {
        const object = objects[`obj:${value}`]
        return object?.stream?.dict ?? object?.value
      }
      return value
    }
    const trailer = dicts.get('trailer') ?? {}
    return {
      trailer,
      catalog: resolve(trailer['/Root']) as PdfDict,
      dicts,
      resolve,
      streamBytes: (ref) => streamBytes(bytes, ref),
      head: bytes.subarray(0, 16),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A stream's data, decoded by qpdf. */
function streamBytes(bytes: Buffer, ref: string): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-pdf-stream-'))
  try {
    const file = path.join(dir, 'in.pdf')
    writeFileSync(file, bytes)
    return execFileSync('qpdf', [`--show-object=${ref.split(' ')[0]}`, '--filtered-stream-data', file])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
