// veraPDF's tests are JavaScript boolean expressions (Rhino) over one model object's properties,
// with a few Java string methods (`s.length()`, `set.contains(x)`). They are shipped data, never
// user input: each is compiled once into a function whose parameters are the names it reads, so
// a rule can also say which properties it needs (a rule whose properties the model lacks is not
// claimed as checked).

export type CompiledExpression = (props: Readonly<Record<string, unknown>>) => unknown

export interface Compiled {
  /** the free names the expression reads: the object's properties it needs */
  names: string[]
  run: CompiledExpression
}

// names the expressions use that are the language's, not the object's
const GLOBALS = new Set([
  'Math',
  'null',
  'true',
  'false',
  'undefined',
  'Number',
  'String',
  'parseInt',
  'parseFloat',
  'isNaN',
  'typeof',
  'instanceof',
  'new',
  'in',
  'RegExp',
])

// Java methods of the values Rhino handed to the expressions, said in JavaScript
function javaToJs(expression: string): string {
  return expression.replace(/\.length\(\)/g, '.length').replace(/\.contains\(/g, '.includes(')
}

/** The expression with string and regular-expression literals blanked, so names can be read. */
function blankLiterals(src: string): string {
  let out = ''
  let i = 0
  while (i < src.length) {
    const c = src[i]!
    if (c === '"' || c === "'") {
      let j = i + 1
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1
      out += ' '.repeat(j + 1 - i)
      i = j + 1
      continue
    }
    if (c === '/' && /(^|[(,=:[!&|?{};])\s*$/.test(out)) {
      let j = i + 1
      let inClass = false
      while (j < src.length && (inClass || src[j] !== '/')) {
        if (src[j] === '\\') j++
        else if (src[j] === '[') inClass = true
        else if (src[j] === ']') inClass = false
        j++
      }
      j++
      while (j < src.length && /[a-z]/.test(src[j]!)) j++
      out += ' '.repeat(j - i)
      i = j
      continue
    }
    out += c
    i++
  }
  return out
}

/** The object's property names an expression reads (arrow-function parameters excluded). */
export function freeNames(expression: string): string[] {
  const src = blankLiterals(javaToJs(expression))
  const params = new Set([...src.matchAll(/([A-Za-z_$][\w$]*)\s*=>/g)].map((m) => m[1]!))
  const names = new Set<string>()
  for (const m of src.matchAll(/[A-Za-z_$][\w$]*/g)) {
    const before = src.slice(0, m.index).trimEnd()
    if (before.endsWith('.')) continue
    if (/^\d/.test(m[0]) || GLOBALS.has(m[0]) || params.has(m[0])) continue
    names.add(m[0])
  }
  return [...names]
}

/** Compiles a profile expression once. */
export function compileExpression(expression: string): Compiled {
  const names = freeNames(expression)
  const body = `"use strict"; const { ${names.join(', ')} } = props; return (${javaToJs(expression)});`
  const run = new Function('props', body) as CompiledExpression
  return { names, run }
}
