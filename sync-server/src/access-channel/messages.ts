/**
 * The messages of the access channel (`<prefix>:access` on Redis), what the sync servers
 * sharing one Redis tell each other (issue 6 item 1; issue 6 / security). Only sync-server
 * processes (the api's, the worker's, standalone ones) publish and read them.
 */
import { z } from 'zod'

/**
 * A change of who may open a project, told to every sync server (issue 6 item 1):
 * - with `userId`: that member's role changed or they were removed; their connections to the
 *   project's document are closed with `SYNC_ACCESS_CHANGED`, so they authenticate again
 *   (the new role applies; a removed member is refused `project-not-found`);
 * - without `userId`: the project was deleted; every connection to its document is closed and
 *   the document unloaded without being stored.
 */
export const accessChangeSchema = z.object({
  projectId: z.number().int().positive(),
  userId: z.number().int().positive().optional(),
})

/** See {@link accessChangeSchema}. */
export type AccessChange = z.infer<typeof accessChangeSchema>

/**
 * Sessions that ended (sign-out, password reset; issue 6 / security), told to every sync
 * server: each closes the connections authenticated with one of `sessionIds` (`sessions.id`,
 * the cookie token's public half, not a secret) with `SYNC_SESSION_ENDED`; their providers
 * reconnect and are refused `unauthenticated`.
 */
export const sessionsEndedSchema = z.object({
  sessionIds: z.array(z.string().min(1).max(64)).min(1),
})

/** See {@link sessionsEndedSchema}. */
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>

/**
 * One message of the access channel: an {@link AccessChange} (`{ projectId, userId? }`) or
 * {@link SessionsEnded} (`{ sessionIds }`); told apart by their required fields.
 */
export const accessChannelMessageSchema = z.union([accessChangeSchema, sessionsEndedSchema])

/** See {@link accessChannelMessageSchema}. */
export type AccessChannelMessage = AccessChange | SessionsEnded

const senderSchema = z.object({ sender: z.string().min(1) })

/** What goes on the channel: the message and the process that sent it (it skips its own). */
export const wireMessageSchema = z.union([
  accessChangeSchema.extend(senderSchema.shape),
  sessionsEndedSchema.extend(senderSchema.shape),
])

/** See {@link wireMessageSchema}. */
export type WireMessage = z.infer<typeof wireMessageSchema>

/** What a log line says about a message: session ids are counted, not listed. */
export function describeMessage(message: AccessChannelMessage): Record<string, unknown> {
  return 'sessionIds' in message ? { sessionsEnded: message.sessionIds.length } : { ...message }
}
