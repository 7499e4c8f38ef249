import { open } from 'node:fs/promises'
import { mapWithLimit } from '../kernel/map-with-limit.ts'
import { runProgram } from '../kernel/programs/program-launcher.ts'

// Flushing a file to disk waits for a journal commit; two hundred of them (a split's parts) cost
// ~15 ms more than one flush of the whole file system, which commits once for all. Past a
// handful of files the file system is flushed by `sync -f` (syncfs(2)), which reports write-back
// errors on Linux 5.8 and later; when it cannot run or fails, each file is flushed on its own.

/** From this many files on, one flush of the file system beats one flush per file. */
export const SYNCFS_FROM = 8

const FLUSH_CONCURRENCY = 16

/** Flushes each file on its own, several at once. */
export async function flushEach(files: readonly string[]): Promise<void> {
  await mapWithLimit(files, FLUSH_CONCURRENCY, async (file) => {
    const handle = await open(file, 'r')
    try {
      await handle.datasync()
    } finally {
      await handle.close()
    }
  })
}

/** One flush of the file system a path lies on (`sync -f`); false when it could not be done. */
export async function flushFileSystem(anyPathOnIt: string): Promise<boolean> {
  try {
    const result = await runProgram('sync', ['-f', anyPathOnIt], { timeoutMs: 60_000 })
    return result.exitCode === 0
  } catch {
    return false
  }
}

/** Makes the files' bytes durable; `files` all lie on the file system of `root`. */
export async function flushFiles(files: readonly string[], root: string): Promise<void> {
  if (files.length >= SYNCFS_FROM && (await flushFileSystem(root))) return
  await flushEach(files)
}
