import { testDatabaseKinds } from '@reelgraph/db/testing'
import { addNode, docToGraph, type Graph } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  childDatabase,
  connectClient,
  createProject,
  createUser,
  sampleGraph,
  spawnSyncServer,
  storedGraphs,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

describe.each(testDatabaseKinds())('a sync server process on $name', (kind) => {
  it('loses no acknowledged edit when killed inside the debounce window', async () => {
    const database = await childDatabase(kind)
    let db = await database.open()
    const { userId, cookie } = await createUser(db)
    const seed: Graph = sampleGraph()
    const projectId = await createProject(db, userId, seed)
    await database.release(db)

    // A long debounce: the edit below cannot be stored before the kill.
    const first = await spawnSyncServer([...database.args, '--store-throttle-ms', '30000'])
    const doc = new Y.Doc()
    const client = connectClient({ port: first.port, projectId, cookie, doc })
    let second: Awaited<ReturnType<typeof spawnSyncServer>> | undefined
    try {
      await waitFor(() => client.isSynced(), 'synced with the first process')
      expect(docToGraph(doc)).toEqual(seed)
      const edit = textNode('made just before the crash', 800)
      addNode(doc, edit)
      await waitFor(() => client.isAcknowledged(), 'the server acknowledged the edit')
      expect(client.isSaved()).toBe(false)

      first.child.kill('SIGKILL')
      expect(await first.exited).toBeNull()
      second = await spawnSyncServer([
        ...database.args,
        '--port',
        String(first.port),
        '--store-throttle-ms',
        '200',
      ])
      // The provider reconnects by itself and sends what the new process lacks.
      await waitFor(() => client.isSaved(), 'the edit saved by the second process', 30_000)
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)

      db = await database.open()
      // The stored document (snapshot + log) and the REST JSON as GET serves it.
      const stored = await storedGraphs(db, projectId)
      expect(stored.state).toEqual(docToGraph(doc))
      expect(stored.state?.nodes.map((n) => n.id)).toContain(edit.id)
      expect(stored.json).toEqual(docToGraph(doc))
      await database.release(db)
    } catch (err) {
      const logs = [first.stderr(), second?.stderr() ?? ''].join('\n')
      throw new Error(`${(err as Error).message}\nchild stderr:\n${logs}`, { cause: err })
    } finally {
      client.destroy()
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill()
      if (second && second.child.exitCode === null && second.child.signalCode === null) {
        second.child.kill()
      }
      await database.dispose()
    }
  })
})
