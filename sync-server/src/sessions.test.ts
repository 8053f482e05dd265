import { testDatabaseKinds } from '@reelgraph/db/testing'
import { addNode, getNodesMap, SYNC_CLOSE_REASONS, SYNC_SESSION_ENDED } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { closeLocalSessionConnections } from './access-channel/close-connections.ts'
import {
  createProject,
  createUser,
  sampleGraph,
  signIn,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'
import { useSyncServer } from './testing/sync-fixture.ts'

/** Ended sessions lose their open sockets (issue 6 / security: sign-out closes them). */
describe.each(testDatabaseKinds())('ended sessions on sync connections on $name', (kind) => {
  const sync = useSyncServer(kind, { storeThrottleMs: 100 })

  const deleteSessionRow = (sessionId: string) =>
    sync.db.deleteFrom('sessions').where('id', '=', sessionId).execute()

  it('closes every socket of an ended session, in every document, and refuses its reconnect', async () => {
    const user = await createUser(sync.db)
    const other = await signIn(sync.db, user.userId)
    const first = await createProject(sync.db, user.userId, sampleGraph())
    const second = await createProject(sync.db, user.userId, sampleGraph())
    const endedOnFirst = sync.connect(first, user.cookie)
    const endedOnSecond = sync.connect(second, user.cookie)
    const kept = sync.connect(first, other.cookie)
    await waitFor(
      () => endedOnFirst.isSynced() && endedOnSecond.isSynced() && kept.isSynced(),
      'three providers synced',
    )

    await deleteSessionRow(user.sessionId)
    await sync.gateway.closeSessionConnections([user.sessionId])
    for (const ended of [endedOnFirst, endedOnSecond]) {
      await waitFor(() => ended.refusals.length > 0, 'the ended session’s reconnect refused')
      expect(ended.closes[0]).toEqual(SYNC_SESSION_ENDED)
      expect(ended.refusals).toEqual([SYNC_CLOSE_REASONS.unauthenticated])
    }

    // The same user's other session keeps its connection and keeps editing.
    expect(kept.closes).toEqual([])
    const after = textNode('after the sign-out')
    addNode(kept.doc, after)
    await waitFor(() => kept.isSaved(), 'the other session’s edit stored')
    expect(kept.closes).toEqual([])
    expect(getNodesMap(endedOnFirst.doc).has(after.id)).toBe(false)
  })

  it('closes nothing for sessions that have no connection here, or an empty list', async () => {
    const user = await createUser(sync.db)
    const projectId = await createProject(sync.db, user.userId, sampleGraph())
    const client = sync.connect(projectId, user.cookie)
    await waitFor(() => client.isSynced(), 'synced')
    expect(closeLocalSessionConnections(sync.server.hocuspocus, ['no-such-session'])).toBe(0)
    expect(closeLocalSessionConnections(sync.server.hocuspocus, [])).toBe(0)
    await sync.gateway.closeSessionConnections([])
    expect(closeLocalSessionConnections(sync.server.hocuspocus, [user.sessionId])).toBe(1)
    await waitFor(() => client.closes.length > 0, 'closed')
  })
})
