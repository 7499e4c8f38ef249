/** A fenced block of a Markdown text: its info string (`lang key=value flag ...`) and body. */
export interface Block {
  lang: string
  attrs: Record<string, string>
  flags: Set<string>
  body: string
  /** 1-based line of the opening fence */
  line: number
}

/** The fenced blocks of a Markdown text, in order; `source` names the file in errors. */
export function fencedBlocks(markdown: string, source: string): Block[] {
  const blocks: Block[] = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)(.*)$/.exec(lines[i] as string)
    if (!open) continue
    const start = i
    const body: string[] = []
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i] as string)
    if (i >= lines.length) throw new Error(`${source}: the block at line ${start + 1} is not closed`)
    const attrs: Record<string, string> = {}
    const flags = new Set<string>()
    for (const word of (open[2] as string).trim().split(/\s+/).filter(Boolean)) {
      const eq = word.indexOf('=')
      if (eq > 0) attrs[word.slice(0, eq)] = word.slice(eq + 1)
      else flags.add(word)
    }
    blocks.push({ lang: open[1] as string, attrs, flags, body: body.join('\n'), line: start + 1 })
  }
  return blocks
}
