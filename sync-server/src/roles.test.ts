import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  addNode,
  docToGraph,
  getNodesMap,
  SYNC_ACCESS_CHANGED,
  SYNC_CLOSE_REASONS,
} from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  createProject,
  createUser,
  removeMember,
  sampleGraph,
  setMemberRole,
  storedGraphs,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'
import { useSyncServer } from './testing/sync-fixture.ts'

/** Roles on live connections (issue 6 item 1): viewers read, members removed are cut off. */
describe.each(testDatabaseKinds())('project roles on sync connections on $name', (kind) => {
  const sync = useSyncServer(kind, { storeThrottleMs: 100, retryBaseMs: 50 })

  /** A project of a new owner (holding the sample graph), and a second member with `role`. */
  const sharedProject = async (role: 'editor' | 'viewer') => {
    const owner = await createUser(sync.db)
    const member = await createUser(sync.db)
    const projectId = await createProject(sync.db, owner.userId, sampleGraph())
    await setMemberRole(sync.db, projectId, member.userId, role)
    return { owner, member, projectId }
  }

  /**
   * `reader` writes a node, then `writer` (an editor) writes one; once the editor's node is
   * stored and seen by the reader, the reader's node must be nowhere but in its own doc.
   * Awareness is sent after the update on the same socket: seeing it means the server read
   * the update first.
   */
  const expectWritesRefused = async (
    projectId: number,
    reader: TestClient,
    writer: TestClient,
    mark: string,
  ) => {
    const refused = textNode(`written by a viewer ${mark}`, 700)
    addNode(reader.doc, refused)
    reader.provider.setAwarenessField('mark', mark)
    await waitFor(
      () => [...writer.provider.awareness!.getStates().values()].some((s) => s.mark === mark),
      'the viewer’s awareness after its write',
    )
    const accepted = textNode(`written by an editor ${mark}`, 800)
    addNode(writer.doc, accepted)
    await waitFor(() => writer.isSaved(), 'the editor’s write stored')
    await waitFor(() => getNodesMap(reader.doc).has(accepted.id), 'the viewer sees the edit')
    expect(getNodesMap(writer.doc).has(refused.id)).toBe(false)
    const stored = await storedGraphs(sync.db, projectId)
    for (const graph of [stored.json, stored.state!]) {
      expect(graph.nodes.map((n) => n.id)).toContain(accepted.id)
      expect(graph.nodes.map((n) => n.id)).not.toContain(refused.id)
    }
    // The server never acknowledged the viewer's update.
    expect(reader.provider.hasUnsyncedChanges).toBe(true)
  }

  it('lets a viewer see live edits and presence and show its own, and refuses its writes', async () => {
    const { owner, member, projectId } = await sharedProject('viewer')
    const editor = sync.connect(projectId, owner.cookie)
    const viewer = sync.connect(projectId, member.cookie)
    await waitFor(() => editor.isSynced() && viewer.isSynced(), 'both providers synced')
    expect(viewer.provider.authorizedScope).toBe('readonly')
    expect(editor.provider.authorizedScope).toBe('read-write')
    expect(docToGraph(viewer.doc).nodes).toHaveLength(2)
    expect(docToGraph(viewer.doc)).toEqual(docToGraph(editor.doc))

    const live = textNode('live from the editor')
    addNode(editor.doc, live)
    await waitFor(() => getNodesMap(viewer.doc).has(live.id), 'the viewer sees the edit live')

    editor.provider.setAwarenessField('user', { name: 'Owner', color: '#f00' })
    viewer.provider.setAwarenessField('user', { name: 'Viewer', color: '#00f' })
    const names = (client: TestClient) =>
      [...client.provider.awareness!.getStates().values()].map(
        (s) => (s.user as { name?: string } | undefined)?.name,
      )
    await waitFor(() => names(viewer).includes('Owner'), 'the viewer sees the editor’s presence')
    await waitFor(() => names(editor).includes('Viewer'), 'the editor sees the viewer’s presence')

    await expectWritesRefused(projectId, viewer, editor, 'viewer')
  })

  it('reconnects an editor made viewer read-only, with the access-changed close', async () => {
    const { owner, member, projectId } = await sharedProject('editor')
    const ownerClient = sync.connect(projectId, owner.cookie)
    const memberClient = sync.connect(projectId, member.cookie)
    await waitFor(() => ownerClient.isSynced() && memberClient.isSynced(), 'both synced')
    expect(memberClient.provider.authorizedScope).toBe('read-write')
    const before = textNode('by the editor, while an editor')
    addNode(memberClient.doc, before)
    await waitFor(() => memberClient.isAcknowledged(), 'the editor’s write acknowledged')
    await waitFor(() => getNodesMap(ownerClient.doc).has(before.id), 'the owner sees it')

    await setMemberRole(sync.db, projectId, member.userId, 'viewer')
    await sync.gateway.closeUserConnections(projectId, member.userId)
    await waitFor(
      () => memberClient.closes.some((c) => c.code === SYNC_ACCESS_CHANGED.code),
      'the member’s socket closed with access-changed',
    )
    expect(memberClient.closes.find((c) => c.code === SYNC_ACCESS_CHANGED.code)?.reason).toBe(
      SYNC_ACCESS_CHANGED.reason,
    )
    await waitFor(
      () => memberClient.isSynced() && memberClient.provider.authorizedScope === 'readonly',
      'the member reconnected read-only',
    )
    // The owner's connection was left alone.
    expect(ownerClient.closes).toEqual([])
    await expectWritesRefused(projectId, memberClient, ownerClient, 'demoted')
  })

  it('refuses a removed member as not found, who then hears nothing, and a stranger', async () => {
    const { owner, member, projectId } = await sharedProject('editor')
    const stranger = await createUser(sync.db)
    const ownerClient = sync.connect(projectId, owner.cookie)
    const memberClient = sync.connect(projectId, member.cookie)
    await waitFor(() => ownerClient.isSynced() && memberClient.isSynced(), 'both synced')
    const strangerClient = sync.connect(projectId, stranger.cookie)
    await waitFor(() => strangerClient.refusals.length > 0, 'the stranger refused')
    expect(strangerClient.refusals).toEqual([SYNC_CLOSE_REASONS.notFound])
    expect(getNodesMap(strangerClient.doc).size).toBe(0)

    await removeMember(sync.db, projectId, member.userId)
    await sync.gateway.closeUserConnections(projectId, member.userId)
    await waitFor(() => memberClient.refusals.length > 0, 'the removed member refused')
    expect(memberClient.refusals).toEqual([SYNC_CLOSE_REASONS.notFound])
    expect(memberClient.provider.isAuthenticated).toBe(false)

    const after = textNode('after the removal')
    addNode(ownerClient.doc, after)
    await waitFor(() => ownerClient.isSaved(), 'the owner’s edit stored')
    // A second member still connected would have had it by now; the removed one never does.
    const witness = sync.connect(projectId, owner.cookie)
    await waitFor(() => witness.isSynced() && getNodesMap(witness.doc).has(after.id), 'witness')
    expect(getNodesMap(memberClient.doc).has(after.id)).toBe(false)
    expect(getNodesMap(strangerClient.doc).has(after.id)).toBe(false)
  })
})
