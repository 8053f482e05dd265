import { z } from 'zod'
import { MAX_CONNECTIONS, MAX_NODES, MAX_PROJECT_BYTES, MAX_TEXT_FIELD_BYTES } from './graph.ts'
import { parseSerialId } from './ids.ts'
import { MAX_TIMELINE_CUTS } from './timeline.ts'

/**
 * What the sync server and the web app agree on (issue 3 item 3, ARCHITECTURE decision 6).
 */

/** The WebSocket path of the sync server on the api's HTTP server. */
export const SYNC_PATH = '/sync'

/**
 * The sync server stores a document's unsaved updates at most this long after the first of
 * them (a throttle with a trailing store, not a debounce that every edit resets: issue 15
 * item 6, decision 008). Appends are cheap, so storing often costs little; it keeps the
 * spec's save within 1 s of the last change (spec §4 Save status) and bounds the wait for
 * Saved while someone keeps editing.
 */
export const PERSIST_THROTTLE_MS = 500
/** A failed store is retried after this long, doubling up to the max (issue 3). */
export const PERSIST_RETRY_BASE_MS = 500
export const PERSIST_RETRY_MAX_MS = 10_000
/**
 * Store attempts before the sync server stops retrying until the next change (issue 11):
 * with the defaults about 35 s of an unreachable database. Only an infrastructure failure
 * can fail a store now (every update is validated first); the changes stay in memory and on
 * each client's device, and the next change or the document's unload tries again.
 */
export const PERSIST_MAX_ATTEMPTS = 7
/** Drag positions go to the doc at most 20 times a second (issue 3). */
export const DRAG_WRITE_INTERVAL_MS = 50

/**
 * Reasons the sync server refuses a connection, sent as the authentication failure reason
 * (Hocuspocus `permission-denied`). The web app switches on them.
 */
export const SYNC_CLOSE_REASONS = {
  /** No session cookie, or an expired or forged one: sign in again. */
  unauthenticated: 'unauthenticated',
  /** The project does not exist or the user may not open it (a stranger sees "not found"). */
  notFound: 'project-not-found',
  /** The document could not be loaded from the database; nothing was overwritten. */
  loadFailed: 'load-failed',
  /**
   * The server is busy (issue 23): opening one more document would pass its memory budget,
   * or more documents wait to load than it loads in a few seconds. Not an error: keep the
   * changes on the device and retry later ({@link SYNC_SERVER_BUSY}).
   */
  serverBusy: 'server-busy',
} as const

/**
 * A member's access changed (role changed, or removed from the project): the sync server
 * closes their sockets with this code and reason (issue 6 item 1). The provider reconnects
 * and authenticates again: a new role takes effect, a removed member is refused as
 * `project-not-found`. 4205 is Hocuspocus' "Reset Connection" code.
 */
export const SYNC_ACCESS_CHANGED = { code: 4205, reason: 'access-changed' } as const

/**
 * The session behind a socket ended (sign-out, or a password reset ending the other
 * sessions; issue 6 / security): the sync server closes it with this code and reason. The
 * provider reconnects and is refused `unauthenticated`, and the web app signs the person
 * out. Same code as {@link SYNC_ACCESS_CHANGED} (a client switching on the code reconnects
 * and re-authenticates either way); the reason tells them apart in logs.
 */
export const SYNC_SESSION_ENDED = { code: 4205, reason: 'session-ended' } as const
export type SyncCloseReason = (typeof SYNC_CLOSE_REASONS)[keyof typeof SYNC_CLOSE_REASONS]

/**
 * "Busy, retry" (issue 23): the sync server refuses to open one more document because that
 * would pass its memory budget, or because more documents already wait to load than it loads
 * in a few seconds (a storm of connections after a deploy). The document's connection is
 * refused with `SYNC_CLOSE_REASONS.serverBusy` and a socket that carries no other document is
 * closed with this code, so a provider reconnects (through the proxy, possibly to another
 * replica) after its jittered backoff. Not an error: nothing was lost; the canvas keeps
 * working on its device copy ({@link SERVER_BUSY_MESSAGE}) and retries with
 * {@link busyRetryDelayMs}. 4503 mirrors HTTP 503 Service Unavailable.
 */
export const SYNC_SERVER_BUSY = { code: 4503, reason: SYNC_CLOSE_REASONS.serverBusy } as const

/** What the canvas says while the sync server is busy (issue 23). */
export const SERVER_BUSY_MESSAGE =
  'The server is busy: your changes are kept on this device and will be saved'

/** First retry after a busy refusal at the earliest, in ms (issue 23). */
export const BUSY_RETRY_MIN_MS = 1000
/**
 * Longest wait between retries after busy refusals, in ms: long enough that a thousand
 * refused editors spread their retries over half a minute, short enough that a person sees
 * Saved soon after the server has room.
 */
export const BUSY_RETRY_MAX_MS = 30_000

/**
 * How long to wait before retry number `attempt` (0 for the first) after a busy refusal:
 * exponential backoff with full jitter (a random wait between BUSY_RETRY_MIN_MS and
 * min(BUSY_RETRY_MAX_MS, BUSY_RETRY_MIN_MS * 2^attempt)), so refused clients do not come
 * back together.
 * @param random a number in [0, 1) (default Math.random)
 */
export function busyRetryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BUSY_RETRY_MAX_MS, BUSY_RETRY_MIN_MS * 2 ** Math.max(0, attempt))
  return Math.round(BUSY_RETRY_MIN_MS + random() * (ceiling - BUSY_RETRY_MIN_MS))
}

/** Stateless message types the sync server sends to clients. */
export const SYNC_MESSAGE_TYPES = {
  saved: 'saved',
  saveFailed: 'save-failed',
  updateRefused: 'update-refused',
} as const

/**
 * Why the sync server refused an update (issue 11). Every update is checked before it is
 * applied, broadcast or stored, by the same rules as REST (`validateDocChange`).
 */
export const UPDATE_REFUSAL_REASONS = {
  /** Something other than the `nodes` and `connections` maps, or a value of the wrong kind. */
  documentShape: 'document-shape',
  /** A node that is not a node of the spec (type, id, label, position, data). */
  invalidNode: 'invalid-node',
  /** A connection that is not `{source, target}` under its `source->target` key. */
  invalidConnection: 'invalid-connection',
  /** A string holding U+0000 or an unpaired surrogate. */
  invalidText: 'invalid-text',
  /** A text field over 100 KB. */
  textTooLong: 'text-too-long',
  /** More than MAX_NODES nodes. */
  tooManyNodes: 'too-many-nodes',
  /** More than MAX_CONNECTIONS connections. */
  tooManyConnections: 'too-many-connections',
  /** The project's document over MAX_PROJECT_BYTES (or one update over it). */
  projectTooLarge: 'project-too-large',
  /** A timeline register that is not a field of a cut or of the settings, or holds a bad value. */
  invalidTimeline: 'invalid-timeline',
  /** More than MAX_TIMELINE_CUTS cuts in one timeline, or MAX_TIMELINE_REGISTERS registers. */
  tooManyCuts: 'too-many-cuts',
} as const
export type UpdateRefusalReason =
  (typeof UPDATE_REFUSAL_REASONS)[keyof typeof UPDATE_REFUSAL_REASONS]

/** What the canvas tells a person whose change was refused, by reason. */
export const UPDATE_REFUSAL_MESSAGES: Record<UpdateRefusalReason, string> = {
  'document-shape': 'This change does not fit a Reelgraph project and was not saved.',
  'invalid-node': 'A node in this change is not valid and was not saved.',
  'invalid-connection': 'A connection in this change is not valid and was not saved.',
  'invalid-text':
    'This change contains a character that cannot be stored (U+0000 or a broken one) and was not saved.',
  'text-too-long': `A text field can hold at most ${MAX_TEXT_FIELD_BYTES / 1024} KB; this change was not saved.`,
  'too-many-nodes': `This project is at its limit of ${MAX_NODES.toLocaleString('en-US')} nodes.`,
  'too-many-connections': `This project is at its limit of ${MAX_CONNECTIONS.toLocaleString('en-US')} connections.`,
  'project-too-large': `This project is at its size limit of ${MAX_PROJECT_BYTES / 1024 / 1024} MiB.`,
  'invalid-timeline': 'A timeline edit in this change is not valid and was not saved.',
  'too-many-cuts': `A timeline can hold at most ${MAX_TIMELINE_CUTS} cuts; this change was not saved.`,
}

/**
 * The sync server closes a connection whose update it refused with this code and reason,
 * right after the `update-refused` message. Nothing of the update (nor of what the client
 * sent after it) was applied: the client's document now holds changes the server will never
 * accept, so the canvas drops its copy and loads the project again.
 */
export const SYNC_UPDATE_REFUSED = { code: 4422, reason: 'update-refused' } as const

/**
 * Sent after every successful store (and to each client as it connects): `snapshot` is the
 * base64 `Y.encodeSnapshot` of the document as stored (state vector plus delete set), so a
 * client knows which of its changes, deletions included, are saved (`save-ack.ts`).
 */
export const savedMessageSchema = z.object({
  type: z.literal(SYNC_MESSAGE_TYPES.saved),
  snapshot: z.string(),
  savedAt: z.string(),
})
export type SavedMessage = z.infer<typeof savedMessageSchema>

/**
 * Sent when a store failed: it is retried in `retryInMs`, or, after PERSIST_MAX_ATTEMPTS,
 * not before the next change (`retryInMs` null).
 */
export const saveFailedMessageSchema = z.object({
  type: z.literal(SYNC_MESSAGE_TYPES.saveFailed),
  message: z.string(),
  retryInMs: z.number().nullable(),
})
export type SaveFailedMessage = z.infer<typeof saveFailedMessageSchema>

/**
 * Sent to the one client whose update was refused (issue 11), just before its connection is
 * closed with {@link SYNC_UPDATE_REFUSED}. `message` is for a person
 * ({@link UPDATE_REFUSAL_MESSAGES}); `detail` says what exactly was wrong, for the console.
 */
export const updateRefusedMessageSchema = z.object({
  type: z.literal(SYNC_MESSAGE_TYPES.updateRefused),
  reason: z.enum(Object.values(UPDATE_REFUSAL_REASONS) as [UpdateRefusalReason]),
  message: z.string(),
  detail: z.string().optional(),
})
export type UpdateRefusedMessage = z.infer<typeof updateRefusedMessageSchema>

export const syncMessageSchema = z.discriminatedUnion('type', [
  savedMessageSchema,
  saveFailedMessageSchema,
  updateRefusedMessageSchema,
])
export type SyncMessage = z.infer<typeof syncMessageSchema>

/** The document name of a project: its numeric id as a string. */
export function projectDocumentName(projectId: number): string {
  return String(projectId)
}

/** The project id of a document name, or null when the name is not a project id. */
export function projectIdOfDocument(documentName: string): number | null {
  return parseSerialId(documentName)
}

/**
 * Whether the open project's changes have reached the server: `saved` (persisted),
 * `saving` (sent, not yet acknowledged), `unsaved` (local changes not yet sent, or the
 * last store failed), `unreachable` (local changes, and the sync server has been out of
 * reach for a while, refused the connection, or the browser is offline: issue 11, never a
 * silent Unsaved; the pill reads "Not saved: can't reach the server") or `busy` (local
 * changes, and the sync server is busy and retried later: issue 23; the pill says
 * {@link SERVER_BUSY_MESSAGE}).
 * @see spec §4 Save status, ARCHITECTURE decision 6
 */
export type SaveStatus = 'saved' | 'saving' | 'unsaved' | 'unreachable' | 'busy'
