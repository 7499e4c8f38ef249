import type { WorkDir } from './qpdf.ts'

/**
 * A qpdf job as JSON (`qpdf --job-json-file`), the argument form for anything with a password:
 * JSON strings carry every character (a leading `-`, line breaks) that the command line would
 * read as an option or split, and the passwords never appear in the process list.
 */
export async function qpdfJob(work: WorkDir, name: string, job: Record<string, unknown>): Promise<string> {
  const file = await work.write(`${name}.job.json`, Buffer.from(JSON.stringify(job)))
  return `--job-json-file=${file}`
}
