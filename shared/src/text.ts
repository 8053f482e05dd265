/**
 * Text hygiene: what no string Reelgraph accepts may hold (issue 11). Postgres refuses
 * U+0000 in `text` and `jsonb`, and an unpaired UTF-16 surrogate in `jsonb`; a string that
 * holds either would be accepted into a live document and then fail every store. Every path
 * into the data checks strings with these rules: REST bodies (`findTextProblems` in the
 * api's `validate`), the graph schemas (`safeTextRule`), and each sync update
 * (`validateDocChange`).
 */

/** Why a string was refused, worded to end "<field> ...". */
export const TEXT_PROBLEMS = {
  nul: 'must not contain the NUL character (U+0000). Remove it and try again.',
  surrogate:
    'contains a broken character (an unpaired UTF-16 surrogate). Retype or paste the text again.',
} as const
export type TextProblem = (typeof TEXT_PROBLEMS)[keyof typeof TEXT_PROBLEMS]

/**
 * What is wrong with `text`, or null when nothing is.
 * @returns one of {@link TEXT_PROBLEMS}
 */
export function textProblem(text: string): TextProblem | null {
  if (text.includes('\u0000')) return TEXT_PROBLEMS.nul
  if (!text.isWellFormed()) return TEXT_PROBLEMS.surrogate
  return null
}

/** A string in a value that breaks the rules: its path (object keys, array indexes) and why. */
export interface TextProblemAt {
  path: (string | number)[]
  problem: TextProblem
}

/** Deeper values than this are not searched (request bodies are far shallower). */
const MAX_DEPTH = 32

/**
 * Every string in `value` (a parsed JSON value: objects, arrays, strings, numbers, ...)
 * that breaks the rules, object keys included, at most `limit` of them, depth first.
 */
export function findTextProblems(
  value: unknown,
  limit = 20,
  /** Objects whose strings are known clean (nodes already checked: issue 23), not searched. */
  clean?: ReadonlySet<object>,
): TextProblemAt[] {
  const found: TextProblemAt[] = []
  // One path, grown and shrunk as the walk goes, copied only where a problem is (a REST
  // autosave walks a whole graph every second: issue 23).
  const path: (string | number)[] = []
  const visit = (v: unknown): void => {
    if (found.length >= limit || path.length > MAX_DEPTH) return
    if (typeof v === 'string') {
      const problem = textProblem(v)
      if (problem) found.push({ path: [...path], problem })
    } else if (typeof v === 'object' && v !== null && clean?.has(v)) {
      return
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i)
        visit(v[i])
        path.pop()
      }
    } else if (v !== null && typeof v === 'object') {
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue
        path.push(key)
        const problem = textProblem(key)
        if (problem) found.push({ path: [...path], problem })
        visit((v as Record<string, unknown>)[key])
        path.pop()
      }
    }
  }
  visit(value)
  return found
}

/**
 * For zod's `.superRefine` on a string: adds an issue saying what {@link textProblem} found.
 * @example z.string().superRefine(refineSafeText)
 */
export function refineSafeText(
  text: string,
  ctx: { addIssue(issue: { code: 'custom'; message: string }): void },
): void {
  const problem = textProblem(text)
  if (problem) ctx.addIssue({ code: 'custom', message: `This text ${problem}` })
}
