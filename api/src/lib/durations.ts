/**
 * Durations as operators write them in settings: a number and a unit (`500ms`, `5s`, `2m`,
 * `1h`, `1d`), fractions allowed (`1.5h`).
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/**
 * A comma-separated list of durations (`5s,30s,2m,10m,1h`), in ms, in the order written.
 * Spaces around entries are ignored; an empty text is an empty list.
 * @throws Error naming every entry that is not a positive number with a unit, or longer than
 *   `maxMs`.
 * @see issue 41 item 3 (WEBHOOK_RETRY_DELAYS)
 */
export function parseDurationList(text: string, maxMs = Infinity): number[] {
  const durations: number[] = []
  const bad: string[] = []
  for (const raw of text.split(',')) {
    const entry = raw.trim()
    if (!entry) continue
    const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/i.exec(entry)
    const ms = match ? Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]! : NaN
    if (!(ms > 0) || ms > maxMs) bad.push(entry)
    else durations.push(Math.round(ms))
  }
  if (bad.length > 0) {
    throw new Error(
      `not a duration such as 500ms, 5s, 2m, 1h or 1d${Number.isFinite(maxMs) ? ` (at most ${maxMs / UNIT_MS.d!} days)` : ''}: ${bad.join(', ')}`,
    )
  }
  return durations
}
