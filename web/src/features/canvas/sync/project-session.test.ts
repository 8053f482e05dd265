import type * as Hocuspocus from '@hocuspocus/provider'
import { type HocuspocusProvider, WebSocketStatus } from '@hocuspocus/provider'
import { createGraphNode, MAX_NODES, UPDATE_REFUSAL_MESSAGES } from '@reelgraph/shared'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { CHANGE_REFUSED_FALLBACK } from '../lib/canvas-messages'
import { ProjectSession, type ProjectSessionEvents } from './project-session'
import { useSaveStatusStore } from '@/stores/save-status'
import { UNREACHABLE_GRACE_MS } from './save-tracker'

// The session in Node: the real provider (never connected: `autoConnect: false`), the doc
// and the store; the device copy (IndexedDB) is a stand-in that records what happens to it.
const world = vi.hoisted(() => ({
  providers: [] as unknown[],
  log: [] as string[],
}))

vi.mock('@hocuspocus/provider', async (importOriginal) => {
  const actual = await importOriginal<typeof Hocuspocus>()
  class RecordedProvider extends actual.HocuspocusProvider {
    constructor(configuration: ConstructorParameters<typeof actual.HocuspocusProvider>[0]) {
      super(Object.assign({}, configuration, { autoConnect: false }))
      world.providers.push(this)
    }
  }
  return { ...actual, HocuspocusProvider: RecordedProvider }
})

vi.mock('y-indexeddb', () => ({
  IndexeddbPersistence: class {
    _destroyed = false
    readonly whenSynced = Promise.resolve()
    readonly name: string
    constructor(name: string) {
      this.name = name
    }
    destroy() {
      this._destroyed = true
      return Promise.resolve().then(() => {
        world.log.push(`closed ${this.name}`)
      })
    }
  },
}))

vi.mock('./pending-changes', () => ({
  pendingStoreOf: () => ({ put: () => {}, remove: () => {} }),
  readPendingChanges: () => Promise.resolve([]),
}))

vi.mock('@/lib/device-copies', () => ({
  deviceCopyName: (id: number) => `reelgraph-project-${id}`,
  clearDeviceCopy: (id: number) => {
    world.log.push(`cleared reelgraph-project-${id}`)
    return Promise.resolve()
  },
}))

/** Every event, in order, as `name` or `name: argument`. */
function recordEvents(): { seen: string[]; events: ProjectSessionEvents } {
  const seen: string[] = []
  const on = (name: string) => (arg?: unknown) => {
    seen.push(typeof arg === 'string' ? `${name}: ${arg}` : name)
    world.log.push(name)
  }
  return {
    seen,
    events: {
      onUnauthenticated: on('unauthenticated'),
      onLoadFailed: on('load failed'),
      onSaveFailed: on('save failed'),
      onReauthenticated: on('reauthenticated'),
      onAccessChanged: on('access changed'),
      onAccessLost: on('access lost'),
      onUnreachable: on('unreachable'),
      onChangeRefused: on('change refused'),
      onReopen: on('reopen'),
    },
  }
}

function lastProvider(): HocuspocusProvider {
  return world.providers.at(-1) as HocuspocusProvider
}

/** A session on project 7, started, with its store's editing open. */
function startSession() {
  const session = new ProjectSession(7)
  const { seen, events } = recordEvents()
  session.start(events)
  const provider = lastProvider()
  const actions = session.store.getState().actions
  return { session, seen, provider, actions }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('ProjectSession (issue 11)', () => {
  let errors: unknown[][]
  beforeEach(() => {
    world.providers.length = 0
    world.log.length = 0
    errors = []
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      errors.push(args)
    })
    const page = Object.assign(new EventTarget(), {
      location: { protocol: 'http:', host: '127.0.0.1:3100' },
    })
    vi.stubGlobal('window', page)
    vi.stubGlobal('navigator', { onLine: true })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  it('on update-refused: stops at once, says so, drops the device copy, then asks to reopen', async () => {
    const { session, seen, provider, actions } = startSession()
    actions.addNode('scene', { x: 0, y: 0 })
    const message = UPDATE_REFUSAL_MESSAGES['text-too-long']
    provider.receiveStateless(
      JSON.stringify({
        type: 'update-refused',
        reason: 'text-too-long',
        message,
        detail: 'node "n1" data "narration" is over 100 KB',
      }),
    )
    // At once: the provider is gone (it cannot reconnect with this doc), the toast is asked
    // for, the canvas waits for the new session, and the detail is in the console.
    expect(provider.isAttached).toBe(false)
    expect(seen).toEqual([`change refused: ${message}`])
    expect(session.store.getState().session.ready).toBe(false)
    expect(JSON.stringify(errors)).toContain('is over 100 KB')

    await flush()
    // The copy is closed before it is deleted, and deleted before the project reopens.
    expect(world.log).toEqual([
      'change refused',
      'closed reelgraph-project-7',
      'cleared reelgraph-project-7',
      'reopen',
    ])
    // This session is done: starting it again (React's second effect run) does nothing.
    session.start(recordEvents().events)
    expect(world.providers).toHaveLength(1)
  })

  it('treats the update-refused close without its message the same way', async () => {
    const { seen, provider } = startSession()
    provider.configuration.onClose({
      event: { code: 4422, reason: 'update-refused' } as CloseEvent,
    })
    expect(provider.isAttached).toBe(false)
    await flush()
    expect(seen).toEqual([`change refused: ${CHANGE_REFUSED_FALLBACK}`, 'reopen'])
  })

  it('leaves saved and save-failed to the save status', () => {
    const { session, seen, provider, actions } = startSession()
    actions.addNode('scene', { x: 0, y: 0 })
    provider.receiveStateless(
      JSON.stringify({ type: 'save-failed', message: 'db down', retryInMs: 500 }),
    )
    expect(seen).toEqual(['save failed: db down'])
    expect(provider.isAttached).toBe(true)
    session.stop()
  })

  it('refuses locally, with the server’s sentence, an edit past the node limit', () => {
    const session = new ProjectSession(8)
    session.doc.transact(() => {
      const nodes = session.doc.getMap('nodes')
      for (let i = 0; i < MAX_NODES; i++) {
        const node = createGraphNode('editable-text', { x: i, y: 0 })
        nodes.set(node.id, new Y.Map())
      }
    })
    const { seen, events } = recordEvents()
    session.start(events)
    expect(session.store.getState().actions.addNode('scene', { x: 0, y: 0 })).toBe(null)
    expect(seen).toEqual([`change refused: ${UPDATE_REFUSAL_MESSAGES['too-many-nodes']}`])
    session.stop()
  })

  it('says "not saved" once per outage: after the grace period, and at once offline', async () => {
    vi.useFakeTimers()
    const { session, seen, provider, actions } = startSession()
    await vi.advanceTimersByTimeAsync(0)
    provider.authenticatedHandler('read-write')
    actions.addNode('scene', { x: 0, y: 0 })
    expect(session.saveStatus).toBe('saving')

    // The browser goes offline: at once, and once.
    window.dispatchEvent(new Event('offline'))
    expect(session.saveStatus).toBe('unreachable')
    await vi.advanceTimersByTimeAsync(UNREACHABLE_GRACE_MS * 3)
    expect(seen).toEqual(['unreachable'])

    // Back and authenticated: saving again; the next outage waits out the grace period.
    provider.authenticatedHandler('read-write')
    expect(session.saveStatus).toBe('saving')
    provider.configuration.onStatus({ status: WebSocketStatus.Disconnected })
    expect(session.saveStatus).toBe('unsaved')
    await vi.advanceTimersByTimeAsync(UNREACHABLE_GRACE_MS)
    expect(session.saveStatus).toBe('unreachable')
    expect(seen).toEqual(['unreachable', 'reauthenticated', 'unreachable'])
    session.stop()
  })

  it('says "not saved" at once when the connection is refused for a reason it cannot wait out', () => {
    const { session, seen, provider, actions } = startSession()
    actions.addNode('scene', { x: 0, y: 0 })
    provider.permissionDeniedHandler('load-failed')
    expect(session.saveStatus).toBe('unreachable')
    expect(seen).toEqual(['load failed', 'unreachable'])
    session.stop()
  })

  it('writes the one save-status store once ready, lingers "Saving changes..." 2 s, and rests at Saved when stopped (issue 14 item 1)', async () => {
    vi.useFakeTimers()
    const store = useSaveStatusStore
    store.getState().set({ status: 'saved', savingIndicator: false })
    const { session, provider, actions } = startSession()
    provider.authenticatedHandler('read-write')
    actions.addNode('scene', { x: 0, y: 0 })
    // Not ready yet (the device copy is still being read): nothing is known, the pill rests.
    expect(session.saveStatus).toBe('saving')
    expect(store.getState()).toMatchObject({ status: 'saved', savingIndicator: false })

    await vi.advanceTimersByTimeAsync(0)
    provider.configuration.onSynced({ state: true })
    expect(session.store.getState().session.ready).toBe(true)
    expect(store.getState()).toMatchObject({ status: 'saving', savingIndicator: true })

    // Saving ends (here: the link drops): the status at once, the indicator 2 s later.
    provider.configuration.onStatus({ status: WebSocketStatus.Disconnected })
    expect(store.getState()).toMatchObject({ status: 'unsaved', savingIndicator: true })
    await vi.advanceTimersByTimeAsync(1_900)
    expect(store.getState().savingIndicator).toBe(true)
    await vi.advanceTimersByTimeAsync(200)
    expect(store.getState().savingIndicator).toBe(false)

    session.stop()
    expect(store.getState()).toMatchObject({ status: 'saved', savingIndicator: false })
  })
})
