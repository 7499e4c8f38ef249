import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Config } from '../kernel/config.ts'

const DAY_MS = 24 * 3600 * 1000

/** One render's scratch folder: made on first use, removed by `dispose` if it was made. */
export interface ScratchLease {
  dir(): Promise<string>
  dispose(): Promise<void>
}

/**
 * Private folders for the temporary files of renders, under `${dataDir}/tmp/work`: on the same
 * disk as the local file store, so a file written there (a split's part) moves into the store
 * by a rename instead of a copy.
 */
export class ScratchDirs {
  readonly root: string

  constructor(deps: { config: Pick<Config, 'dataDir'> }) {
    this.root = path.join(deps.config.dataDir, 'tmp', 'work')
  }

  lease(): ScratchLease {
    let made: Promise<string> | undefined
    return {
      dir: () => {
        made ??= mkdir(this.root, { recursive: true }).then(() => mkdtemp(path.join(this.root, 'render-')))
        return made
      },
      dispose: async () => {
        if (!made) return
        const dir = await made.catch(() => undefined)
        if (dir) await rm(dir, { recursive: true, force: true })
      },
    }
  }

  /** Removes folders a stopped process left behind: those untouched for `maxAgeMs` (a day). */
  async sweep(now = Date.now(), maxAgeMs = DAY_MS): Promise<number> {
    let names: string[]
    try {
      names = await readdir(this.root)
    } catch {
      return 0
    }
    let removed = 0
    for (const name of names) {
      const dir = path.join(this.root, name)
      const info = await stat(dir).catch(() => undefined)
      if (!info || now - info.mtimeMs < maxAgeMs) continue
      await rm(dir, { recursive: true, force: true })
      removed++
    }
    return removed
  }
}
