/**
 * Environment variables that look like settings but are not (issue 11 item 9): a process
 * reads only the names its zod `env.ts` schema declares and silently ignores every other
 * one, so `SANDBOX_BILLING=true` (for `BILLING_SANDBOX`) or `SMTP_HOST=...` (there is only
 * `SMTP_URL`) changes nothing. The api and the sync server pass their schemas' names to
 * {@link findLookalikeSettings} at boot and log a warning for each finding.
 */

/** Every Reelgraph setting name may start with it one day: such names are always checked. */
export const SETTINGS_NAMESPACE_PREFIX = 'REELGRAPH_'

/**
 * Prefixes of other programs' variables that share a first word with a setting
 * (`NODE_ENV` is ours; `NODE_OPTIONS`, `NODE_EXTRA_CA_CERTS` are Node's own).
 */
const FOREIGN_PREFIXES = new Set(['NODE_'])

/**
 * Names Kubernetes (and Docker's legacy links) derive from other services' names, e.g.
 * `REDIS_SERVICE_HOST`, `REDIS_PORT_6379_TCP_ADDR`: set by the platform, never typos.
 */
const SERVICE_LINK = /_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT_\d+_(TCP|UDP|SCTP)(_[A-Z]+)?)$/

/** One variable that looks like a setting but is not one. */
export interface SettingLookalike {
  /** The variable as it is set. */
  name: string
  /** The setting it most likely means, when one is close enough to name. */
  suggestion?: string | undefined
  /**
   * `similar`: a few edits (or the same words in another order) away from `suggestion`;
   * `prefix`: starts like settings do (`STRIPE_`, `S3_`, ...) but is none of them.
   */
  reason: 'similar' | 'prefix'
}

/** Options of {@link findLookalikeSettings}. */
export interface LookalikeOptions {
  /** Extra prefixes to check besides the derived ones and `REELGRAPH_`, e.g. `['FOO_']`. */
  prefixes?: readonly string[]
  /** Names that are read although they are no setting (e.g. by a library): never reported. */
  alsoRead?: Iterable<string>
}

/**
 * Levenshtein distance: the fewest single-character insertions, deletions and
 * substitutions that turn `a` into `b`. O(|a|·|b|) time, O(|b|) memory.
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution)
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

/** How many edits still count as a typo of a known name of `length` characters. */
function typoBudget(length: number): number {
  return length <= 5 ? 1 : length <= 10 ? 2 : 3
}

/** The name's words, sorted: `SANDBOX_BILLING` and `BILLING_SANDBOX` both give `BILLING_SANDBOX`. */
function sortedWords(name: string): string {
  return name.split('_').filter(Boolean).sort().join('_')
}

/** The smaller of the plain distance and the distance between the sorted words. */
function nameDistance(name: string, known: string): number {
  return Math.min(editDistance(name, known), editDistance(sortedWords(name), sortedWords(known)))
}

/**
 * The prefixes settings share: the first word (with its `_`) of every known name of two
 * words or more, minus other programs' (`NODE_`), plus `REELGRAPH_`. Sorted.
 */
export function settingPrefixes(known: Iterable<string>): string[] {
  const prefixes = new Set([SETTINGS_NAMESPACE_PREFIX])
  for (const name of known) {
    const cut = name.indexOf('_')
    if (cut <= 0 || cut === name.length - 1) continue
    const prefix = name.slice(0, cut + 1)
    if (!FOREIGN_PREFIXES.has(prefix)) prefixes.add(prefix)
  }
  return [...prefixes].sort()
}

/**
 * Finds the variables among `names` that look like one of the `known` settings but are
 * not one (issue 11 item 9). A name is reported when, compared in upper case, it is
 * - within a few edits of a known name (1 for names up to 5 characters, 2 up to 10, else
 *   3), in its own word order or with both names' words sorted (`SANDBOX_BILLING` for
 *   `BILLING_SANDBOX`, `database_url` for `DATABASE_URL`), or
 * - starts with a settings prefix ({@link settingPrefixes}: `STRIPE_`, `S3_`, `SMTP_`,
 *   `REELGRAPH_`...) without being a setting; the suggestion is then the closest known name
 *   with that prefix, if any.
 * Known names and `alsoRead` names are never reported, nor platform-made service links
 * (`X_SERVICE_HOST`, `X_PORT_80_TCP`).
 * @param names the variables that are set (the keys of the process environment)
 * @param known the names the process's env schema reads
 * @returns the findings, sorted by name; empty when nothing looks wrong
 */
export function findLookalikeSettings(
  names: Iterable<string>,
  known: Iterable<string>,
  options: LookalikeOptions = {},
): SettingLookalike[] {
  const knownNames = [...new Set(known)]
  const read = new Set([...knownNames, ...(options.alsoRead ?? [])])
  const prefixes = [...settingPrefixes(knownNames), ...(options.prefixes ?? [])]
  const findings: SettingLookalike[] = []
  for (const name of new Set(names)) {
    if (read.has(name)) continue
    const upper = name.toUpperCase()
    if (SERVICE_LINK.test(upper)) continue
    const closest = closestName(upper, knownNames)
    if (closest && closest.distance <= typoBudget(closest.name.length)) {
      findings.push({ name, suggestion: closest.name, reason: 'similar' })
      continue
    }
    const prefix = prefixes.find((p) => upper.startsWith(p))
    if (prefix) {
      const family = knownNames.filter((k) => k.startsWith(prefix))
      findings.push({ name, suggestion: mostAlike(upper, family), reason: 'prefix' })
    }
  }
  return findings.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** The known name nearest to `name` (ties: the first given), or undefined when none. */
function closestName(name: string, known: readonly string[]) {
  let best: { name: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = nameDistance(name, candidate)
    if (!best || distance < best.distance) best = { name: candidate, distance }
  }
  return best
}

/** The known name sharing the most words with `name` (ties: the fewest edits), if any. */
function mostAlike(name: string, known: readonly string[]): string | undefined {
  const words = new Set(name.split('_'))
  const shared = (k: string) => k.split('_').filter((w) => words.has(w)).length
  const ranked = known
    .map((k) => ({ name: k, shared: shared(k), distance: nameDistance(name, k) }))
    .sort((a, b) => b.shared - a.shared || a.distance - b.distance)
  return ranked[0]?.name
}

/**
 * The warning a person reads in the log, e.g. `SANDBOX_BILLING is set but is not a
 * setting, so it changes nothing: did you mean BILLING_SANDBOX?`.
 */
export function describeLookalike(finding: SettingLookalike): string {
  const base = `${finding.name} is set but is not a setting, so it changes nothing`
  return finding.suggestion
    ? `${base}: did you mean ${finding.suggestion}?`
    : `${base} (see .env.example for every setting)`
}
