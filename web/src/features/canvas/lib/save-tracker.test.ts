import { addNode, createGraphNode, getNodesMap, removeNodes } from '@reelgraph/shared'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import type { SaveStatus } from '@/stores/save-status'
import { keepClockMoving } from './clock-bump'
import { decodeStateVector, deriveSaveStatus, SaveTracker } from './save-tracker'

function savedMessage(doc: Y.Doc): string {
  const sv = Y.encodeStateVector(doc)
  return JSON.stringify({
    type: 'saved',
    stateVector: btoa(String.fromCharCode(...sv)),
    savedAt: new Date().toISOString(),
  })
}

function setup() {
  const doc = new Y.Doc()
  const statuses: SaveStatus[] = []
  const failures: string[] = []
  const stored = new Map<number, number>()
  const tracker = new SaveTracker({
    doc,
    onStatus: (s) => statuses.push(s),
    onSaveFailed: (m) => failures.push(m),
    store: { put: (c, clock) => stored.set(c, clock), remove: (c) => stored.delete(c) },
  })
  return { doc, tracker, statuses, failures, stored }
}

const addScene = (doc: Y.Doc) => {
  const node = createGraphNode('scene', { x: 0, y: 0 })
  addNode(doc, node)
  return node
}

describe('deriveSaveStatus (ARCHITECTURE decision 6)', () => {
  it('is saved with nothing pending, saving while connected, unsaved offline or after a failure', () => {
    expect(deriveSaveStatus({ pending: 0, linkUp: false, saveFailed: true })).toBe('saved')
    expect(deriveSaveStatus({ pending: 1, linkUp: true, saveFailed: false })).toBe('saving')
    expect(deriveSaveStatus({ pending: 1, linkUp: false, saveFailed: false })).toBe('unsaved')
    expect(deriveSaveStatus({ pending: 1, linkUp: true, saveFailed: true })).toBe('unsaved')
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
    expect(stored.get(doc.clientID)).toBe(Y.getState(doc.store, doc.clientID))
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
    tracker.receive(JSON.stringify({ type: 'saved', stateVector: '***', savedAt: 'x' }))
    expect(tracker.status).toBe('saving')
  })

  it('restores edits kept from an earlier page load: Unsaved until the server stores them', () => {
    const earlier = new Y.Doc()
    addScene(earlier)
    const { doc, tracker } = setup()
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(earlier))
    tracker.restore([[earlier.clientID, Y.getState(earlier.store, earlier.clientID)]])
    expect(tracker.status).toBe('unsaved')
    tracker.setLinkUp(true)
    expect(tracker.status).toBe('saving')
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
  })

  it('settles earlier-load edits the server already had when no store follows in time', () => {
    const { tracker } = setup()
    tracker.restore([[12345, 3]])
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

  it('counts a delete-only edit once the clock bump runs', () => {
    const { doc, tracker } = setup()
    const stop = keepClockMoving(doc)
    const node = addScene(doc)
    tracker.setLinkUp(true)
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
    removeNodes(doc, [node.id])
    expect(getNodesMap(doc).size).toBe(0)
    expect(tracker.status).toBe('saving')
    tracker.receive(savedMessage(doc))
    expect(tracker.status).toBe('saved')
    stop()
    tracker.destroy()
  })

  it('decodes a base64 state vector', () => {
    const doc = new Y.Doc()
    addScene(doc)
    const sv = decodeStateVector(JSON.parse(savedMessage(doc)).stateVector)
    expect(sv.get(doc.clientID)).toBe(Y.getState(doc.store, doc.clientID))
  })
})
