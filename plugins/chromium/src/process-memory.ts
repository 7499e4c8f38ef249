import { readdir, readFile } from 'node:fs/promises'

const PAGE_BYTES = 4096

/**
 * Memory of a process and all its descendants in MiB, from /proc (Linux); undefined
 * where /proc is not readable. Chromium's renderers hang below its zygote, so the whole tree counts.
 */
export async function processTreeRssMb(rootPid: number): Promise<number | undefined> {
  let names: string[]
  try {
    names = await readdir('/proc')
  } catch {
    return undefined
  }
  const parents = new Map<number, number>()
  await Promise.all(
    names
      .filter((n) => /^\d+$/.test(n))
      .map(async (n) => {
        const stat = await readFile(`/proc/${n}/stat`, 'utf8').catch(() => '')
        // the command name may hold spaces and parentheses: fields start after the last ')'
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        const ppid = Number(fields[1])
        if (Number.isInteger(ppid)) parents.set(Number(n), ppid)
      }),
  )
  const tree = new Set([rootPid])
  for (let grew = true; grew; ) {
    grew = false
    for (const [pid, ppid] of parents) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid)
        grew = true
      }
    }
  }
  let bytes = 0
  for (const pid of tree) bytes += await processBytes(pid)
  return bytes / (1024 * 1024)
}

/** Proportional set size (shared pages split between the processes sharing them), else RSS. */
async function processBytes(pid: number): Promise<number> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '')
  const pss = /^Pss:\s+(\d+) kB/m.exec(rollup)
  if (pss) return Number(pss[1]) * 1024
  const statm = await readFile(`/proc/${pid}/statm`, 'utf8').catch(() => '')
  return (Number(statm.split(' ')[1]) || 0) * PAGE_BYTES
}
