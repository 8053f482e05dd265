import {
  addConnection,
  addNode,
  createGraphNode,
  encodeSavedSnapshot,
  getNodesMap,
  type PendingChange,
  removeConnections,
  removeNodes,
} from '@reelgraph/shared'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import type { SaveStatus } from '@/stores/save-status'
import {
  deriveSaveStatus,
  parseSyncMessage,
  SaveTracker,
  UNREACHABLE_GRACE_MS,
} from './save-tracker'

/** The `saved` message the sync server sends once `doc` (its copy) is stored. */
function savedMessage(doc: Y.Doc): string {
  return JSON.stringify({
    type: 'saved',
    snapshot: encodeSavedSnapshot(doc),
    savedAt: new Date().toISOString(),
  })
}

function setup() {
  const doc = new Y.Doc()
  const statuses: SaveStatus[] = []
  const failures: string[] = []
  const stored = new Map<number, PendingChange>()
  const outages = { reported: 0 }
  const tracker = new SaveTracker({
    doc,
    onStatus: (s) => statuses.push(s),
    onSaveFailed: (m) => failures.push(m),
    onUnreachable: () => {
      outages.reported += 1
    },
    store: { put: (c, change) => stored.set(c, change), remove: (c) => stored.delete(c) },
  })
  return { doc, tracker, statuses, failures, stored, outages }
}

const addScene = (doc: Y.Doc) => {
  const node = createGraphNode('scene', { x: 0, y: 0 })
  addNode(doc, node)
  return node
}

describe('deriveSaveStatus (ARCHITECTURE decision 6, issue 11)', () => {
  it('is saved with nothing pending, saving while connected, unsaved while not or after a failure', () => {
    const facts = { pending: 1, linkUp: true, saveFailed: false, outage: false }
    expect(deriveSaveStatus({ ...facts, pending: 0, linkUp: false, saveFailed: true })).toBe(
      'saved',
    )
    expect(deriveSaveStatus(facts)).toBe('saving')
    expect(deriveSaveStatus({ ...facts, linkUp: false })).toBe('unsaved')
    expect(deriveSaveStatus({ ...facts, saveFailed: true })).toBe('unsaved')
  })

  it('is unreachable with something pending during an outage, never with nothing pending', () => {
    const facts = { pending: 1, linkUp: false, saveFailed: false, outage: true }
    expect(deriveSaveStatus(facts)).toBe('unreachable')
    expect(deriveSaveStatus({ ...facts, saveFailed: true })).toBe('unreachable')
    expect(deriveSaveStatus({ ...facts, pending: 0 })).toBe('saved')
  })
})

describe('parseSyncMessage', () => {
  it('reads the sync messages of shared, and nothing else', () => {
    const refused = {
      type: 'update-refused',
      reason: 'too-many-nodes',
      message: 'This project is at its limit of 2,000 nodes.',
      detail: '2001 nodes',
    }
    expect(parseSyncMessage(JSON.stringify(refused))).toEqual(refused)
    expect(parseSyncMessage(JSON.stringify({ ...refused, reason: 'made-up' }))).toBe(null)
    expect(parseSyncMessage('{')).toBe(null)
    expect(parseSyncMessage(JSON.stringify({ type: 'hello' }))).toBe(null)
  })
})

describe('SaveTracker', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('reads Unsaved offline, Saving... once connected, Saved when a saved message covers the edits', () => {
    const { doc, tracker, statuses, stored } = setup()
    expect(tracker.status).toBe('saved')
    addScene(doc)
    expect(tracker.status).toBe('unsaved')
    expect(stored.get(doc.clientID)?.clock).toBe(Y.getState(doc.store, doc.clientID))
    tracker.setLinkUp(true)
    expect(tracker.status).toBe('saving')

    // A store from before the latest edit does not cover it.
    const early = savedMessage(doc)
    addScene(doc)
    tracker.receive(early)
    expect(tracker.status).toBe('saving')

    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
    expect(stored.size).toBe(0)
    expect(statuses).toEqual(['unsaved', 'saving', 'saved'])
  })

  it('ignores other clients: remote edits never make this device unsaved', () => {
    const { doc, tracker } = setup()
    const other = new Y.Doc()
    addScene(other)
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(other))
    expect(tracker.status).toBe('saved')
  })

  it('goes Unsaved on save-failed until the next saved message', () => {
    const { doc, tracker, failures } = setup()
    tracker.setLinkUp(true)
    addScene(doc)
    tracker.receive(JSON.stringify({ type: 'save-failed', message: 'db down', retryInMs: 500 }))
    expect(tracker.status).toBe('unsaved')
    expect(failures).toEqual(['db down'])
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
  })

  it('ignores messages it does not understand', () => {
    const { doc, tracker } = setup()
    tracker.setLinkUp(true)
    addScene(doc)
    tracker.receive('not json')
    tracker.receive(JSON.stringify({ type: 'hello' }))
    tracker.receive(JSON.stringify({ type: 'saved', snapshot: '***', savedAt: 'x' }))
    tracker.receive(JSON.stringify({ type: 'saved', snapshot: btoa('junk'), savedAt: 'x' }))
    expect(tracker.status).toBe('saving')
  })

  it('restores edits kept from an earlier page load: Unsaved until the server stores them', () => {
    const earlier = new Y.Doc()
    addScene(earlier)
    const { doc, tracker } = setup()
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(earlier))
    const clock = Y.getState(earlier.store, earlier.clientID)
    tracker.restore([[earlier.clientID, { clock, deletes: null }]])
    expect(tracker.status).toBe('unsaved')
    tracker.setLinkUp(true)
    expect(tracker.status).toBe('saving')
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
  })

  it('settles earlier-load edits the server already had when no store follows in time', () => {
    const { tracker } = setup()
    tracker.restore([[12345, { clock: 3, deletes: null }]])
    tracker.setLinkUp(true)
    tracker.setUnsyncedChanges(1)
    vi.advanceTimersByTime(60_000)
    expect(tracker.status).toBe('saving')
    tracker.setUnsyncedChanges(0)
    vi.advanceTimersByTime(14_000)
    expect(tracker.status).toBe('saving')
    vi.advanceTimersByTime(1_000)
    expect(tracker.status).toBe('saved')
  })

  it('counts a delete-only edit (no clock moves) until a snapshot holds the deletion', () => {
    const { doc, tracker, stored } = setup()
    const node = addScene(doc)
    const other = addScene(doc)
    addConnection(doc, { source: node.id, target: other.id })
    tracker.setLinkUp(true)
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
    const clock = Y.getState(doc.store, doc.clientID)

    // The server's copy as stored before the deletion.
    const server = new Y.Doc()
    Y.applyUpdate(server, Y.encodeStateAsUpdate(doc))
    removeConnections(doc, [`${node.id}->${other.id}`])
    removeNodes(doc, [node.id])
    expect(Y.getState(doc.store, doc.clientID)).toBe(clock)
    expect(getNodesMap(doc).size).toBe(1)
    expect(tracker.status).toBe('saving')
    expect(stored.get(doc.clientID)?.deletes?.clients.size).toBe(1)

    // Same state vector, without the deletion: not saved yet.
    tracker.receive(savedMessage(server))
    expect(tracker.status).toBe('saving')
    Y.applyUpdate(server, Y.encodeStateAsUpdate(doc, Y.encodeStateVector(server)))
    tracker.receive(savedMessage(server))
    expect(tracker.status).toBe('saved')
    expect(stored.size).toBe(0)
    tracker.destroy()
  })

  it('keeps a deletion pending while the stored snapshot holds only some of it', () => {
    const { doc, tracker } = setup()
    const [a, b] = [addScene(doc), addScene(doc)]
    tracker.setLinkUp(true)
    const server = new Y.Doc()
    Y.applyUpdate(server, Y.encodeStateAsUpdate(doc))
    tracker.receive(savedMessage(server))
    removeNodes(doc, [a.id])
    // The server stores the first deletion.
    Y.applyUpdate(server, Y.encodeStateAsUpdate(doc, Y.encodeStateVector(server)))
    removeNodes(doc, [b.id])
    tracker.receive(savedMessage(server))
    expect(tracker.status).toBe('saving')
    Y.applyUpdate(server, Y.encodeStateAsUpdate(doc, Y.encodeStateVector(server)))
    tracker.receive(savedMessage(server))
    expect(tracker.status).toBe('saved')
    tracker.destroy()
  })

  it('leaves update-refused to the session: not a save failure', () => {
    const { doc, tracker, failures } = setup()
    tracker.setLinkUp(true)
    addScene(doc)
    tracker.receive(
      JSON.stringify({ type: 'update-refused', reason: 'invalid-text', message: 'No.' }),
    )
    expect(tracker.status).toBe('saving')
    expect(failures).toEqual([])
  })
})

describe('SaveTracker outages (issue 11: never a silent Unsaved)', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('reads Unsaved during the grace period, then unreachable, reported once per outage', () => {
    const { doc, tracker, statuses, outages } = setup()
    tracker.setLinkUp(true)
    tracker.setLinkUp(false)
    addScene(doc)
    expect(tracker.status).toBe('unsaved')
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS - 1)
    expect(tracker.status).toBe('unsaved')
    vi.advanceTimersByTime(1)
    expect(tracker.status).toBe('unreachable')
    expect(outages.reported).toBe(1)

    // Reconnect attempts failing, and more edits, in the same outage: no second report.
    tracker.setLinkUp(false)
    addScene(doc)
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS * 3)
    expect(tracker.status).toBe('unreachable')
    expect(outages.reported).toBe(1)

    // Back: saving, then saved; a new outage is reported again.
    tracker.setLinkUp(true)
    expect(tracker.status).toBe('saving')
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
    tracker.setLinkUp(false)
    addScene(doc)
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(tracker.status).toBe('unreachable')
    expect(outages.reported).toBe(2)
    expect(statuses).toEqual([
      'unsaved',
      'unreachable',
      'saving',
      'saved',
      'unsaved',
      'unreachable',
    ])
    tracker.destroy()
  })

  it('never warns for a reconnect within the grace period', () => {
    const { doc, tracker, statuses, outages } = setup()
    tracker.setLinkUp(true)
    addScene(doc)
    tracker.setLinkUp(false)
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS - 1_000)
    tracker.setLinkUp(true)
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS * 2)
    expect(statuses).toEqual(['saving', 'unsaved', 'saving'])
    expect(outages.reported).toBe(0)
    tracker.destroy()
  })

  it('counts a server that cannot be reached from the start', () => {
    const { doc, tracker, outages } = setup()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    // Nothing unsaved: nothing to say yet.
    expect(tracker.status).toBe('saved')
    expect(outages.reported).toBe(0)
    addScene(doc)
    expect(tracker.status).toBe('unreachable')
    expect(outages.reported).toBe(1)
    tracker.destroy()
  })

  it('marks an outage at once when told (offline, refused), but not while the link is up', () => {
    const { doc, tracker, outages } = setup()
    tracker.setLinkUp(true)
    addScene(doc)
    tracker.markUnreachable()
    expect(tracker.status).toBe('saving')
    tracker.setLinkUp(false)
    tracker.markUnreachable()
    expect(tracker.status).toBe('unreachable')
    expect(outages.reported).toBe(1)
    tracker.setLinkUp(true)
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
    tracker.destroy()
  })

  it('stops its grace timer when destroyed', () => {
    const { doc, tracker, outages } = setup()
    addScene(doc)
    tracker.destroy()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS * 2)
    expect(tracker.status).toBe('unsaved')
    expect(outages.reported).toBe(0)
  })
})

describe('SaveTracker while the server is busy (issue 23)', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('reads busy, never unreachable, while refused as busy; Saved once admitted and stored', () => {
    const { doc, tracker, statuses, outages } = setup()
    addScene(doc)
    tracker.markBusy()
    expect(tracker.status).toBe('busy')
    // Retries refused again, for longer than the grace period: still busy, no outage toast.
    tracker.setLinkUp(false)
    tracker.markBusy()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS * 3)
    expect(tracker.status).toBe('busy')
    expect(outages.reported).toBe(0)
    // Admitted: the changes kept on the device go up and are saved.
    tracker.setLinkUp(true)
    expect(tracker.status).toBe('saving')
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
    expect(statuses).toEqual(['unsaved', 'busy', 'saving', 'saved'])
    tracker.destroy()
  })

  it('turns into an outage when another refusal follows the busy one', () => {
    const { doc, tracker } = setup()
    addScene(doc)
    tracker.markBusy()
    tracker.markUnreachable()
    expect(tracker.status).toBe('unreachable')
    tracker.destroy()
  })
})
