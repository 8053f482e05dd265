import { PRESENCE_COLORS } from '@reelgraph/shared'

/** Who a client is, as it announces itself in the awareness state's `user` field. */
export interface PresenceUser {
  id: number
  name: string
  color: string
}

/** A cursor in flow (canvas) coordinates. */
export interface PresenceCursor {
  x: number
  y: number
}

/** One remote client (a tab): a user may have several. */
export interface RemotePresence {
  clientId: number
  user: PresenceUser
  cursor: PresenceCursor | null
  selected: readonly string[]
}

/** The colour of a user, the same on every client (chosen from the id). */
export function colorForUser(id: number): string {
  const n = PRESENCE_COLORS.length
  return PRESENCE_COLORS[((Math.trunc(id) % n) + n) % n] as string
}

/** Up to two initials of a name ("Ada Lovelace" -> "AL"), "?" for an empty one. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words
  return letters.map((w) => (w as string).charAt(0).toUpperCase()).join('') || '?'
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function parseUser(value: unknown): PresenceUser | null {
  if (!isRecord(value)) return null
  const { id, name, color } = value
  if (typeof id !== 'number' || typeof name !== 'string' || typeof color !== 'string') return null
  return { id, name, color }
}

function parseCursor(value: unknown): PresenceCursor | null {
  if (!isRecord(value)) return null
  const { x, y } = value
  return Number.isFinite(x) && Number.isFinite(y) ? { x: x as number, y: y as number } : null
}

function parseSelected(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/**
 * The other clients in awareness states (this client excluded), one entry per client id,
 * ordered by client id; states without a valid `user` are skipped (not yet announced).
 */
export function parsePresenceStates(
  states: ReadonlyMap<number, unknown>,
  selfClientId: number,
): RemotePresence[] {
  const peers: RemotePresence[] = []
  for (const [clientId, state] of states) {
    if (clientId === selfClientId || !isRecord(state)) continue
    const user = parseUser(state.user)
    if (!user) continue
    peers.push({
      clientId,
      user,
      cursor: parseCursor(state.cursor),
      selected: parseSelected(state.selected),
    })
  }
  return peers.sort((a, b) => a.clientId - b.clientId)
}

/** node id -> the colours of the remote users who selected it (each colour once). */
export function selectionColors(peers: readonly RemotePresence[]): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const peer of peers) {
    for (const id of peer.selected) {
      const colors = map.get(id)
      if (!colors) map.set(id, [peer.user.color])
      else if (!colors.includes(peer.user.color)) colors.push(peer.user.color)
    }
  }
  return map
}

/** The people on the project: one entry per user (two tabs are one person), in first-seen order. */
export function peopleOf(users: readonly PresenceUser[]): PresenceUser[] {
  const seen = new Map<number, PresenceUser>()
  for (const user of users) if (!seen.has(user.id)) seen.set(user.id, user)
  return [...seen.values()]
}

/** Two id lists with the same ids in the same order. */
export function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i])
}

/** Two node id -> colours maps with the same content (so a cursor move re-renders no node). */
export function sameSelections(
  a: ReadonlyMap<string, readonly string[]>,
  b: ReadonlyMap<string, readonly string[]>,
): boolean {
  if (a.size !== b.size) return false
  for (const [id, colors] of a) {
    const other = b.get(id)
    if (!other || !sameIds(colors, other)) return false
  }
  return true
}
