import { type AuthorizedScope, HocuspocusProvider, WebSocketStatus } from '@hocuspocus/provider'
import {
  busyRetryDelayMs,
  CANVAS_REMOTE_LOAD_TIMEOUT_MS,
  isDocEmpty,
  projectDocumentName,
  SAVING_INDICATOR_LINGER_MS,
  SYNC_CLOSE_REASONS,
  SYNC_LOAD_RETRY_MS,
  SYNC_MESSAGE_TYPES,
  UPDATE_REFUSAL_MESSAGES,
  type UpdateRefusedMessage,
} from '@reelgraph/shared'
import { IndexeddbPersistence } from 'y-indexeddb'
import * as Y from 'yjs'
import { clearDeviceCopy, deviceCopyName } from '@/lib/device-copies'
import { type SaveStatus, useSaveStatusStore } from '@/stores/save-status'
import { type CanvasStore, createCanvasStore } from '../stores/canvas-store'
import { type ACCESS_TOASTS, accessChangeToast, isAccessChangedClose } from '../lib/access'
import { CHANGE_REFUSED_FALLBACK } from '../lib/canvas-messages'
import { pendingStoreOf, readPendingChanges } from './pending-changes'
import { PresenceChannel } from './presence-channel'
import { reconnectWhenClosed } from './reconnect'
import { parseSyncMessage, SaveTracker } from './save-tracker'
import { isUpdateRefusedClose } from './sync-close'
import { syncUrl } from './sync-url'

/** What a session tells the screen (each shows a toast or navigates). */
export interface ProjectSessionEvents {
  /** The sync server says the session ended: sign in again. */
  onUnauthenticated: () => void
  /** The server could not open the project (missing, not theirs, or failed to load). */
  onLoadFailed: () => void
  /** A store failed on the server (it retries). */
  onSaveFailed: (message: string) => void
  /**
   * The project's changes cannot reach the server (down past the grace period, offline, or
   * refused) while some are not saved: once per outage (issue 11).
   */
  onUnreachable: () => void
  /**
   * A change was not saved, with the sentence for the person: the sync server refused it
   * (the session then stops and asks for {@link onReopen}), or the canvas did not make it
   * because the server would (a limit, checked before writing). Issue 11.
   */
  onChangeRefused: (message: string) => void
  /**
   * The session dropped its doc and its device copy after a refused change: open the
   * project again from the server with a new session (a new Y.Doc, so a new client id).
   */
  onReopen: () => void
  /**
   * The connection authenticated again after being connected before (a reconnect, or the
   * server's access-changed close): what REST says about the project may have changed.
   */
  onReauthenticated: () => void
  /** This person's access changed while the project was open (issue 6 item 1). */
  onAccessChanged: (toast: (typeof ACCESS_TOASTS)['changed' | 'viewOnly']) => void
  /** The project was open and is now refused: removed from it, or it was deleted. */
  onAccessLost: () => void
  /**
   * The sync server is busy (issue 23): the canvas keeps working on the device copy and
   * retries with jittered backoff. Once per busy spell (until the connection is admitted).
   */
  onServerBusy?: () => void
}

/** The connections of a started session. */
interface Connections {
  persistence: IndexeddbPersistence
  provider: HocuspocusProvider
  tracker: SaveTracker
  stopNetworkEvents: () => void
  stopPresence: () => void
  timers: Set<ReturnType<typeof setTimeout>>
  lingerTimer: ReturnType<typeof setTimeout> | null
  /** The tracker's latest status, shown once the canvas is ready. */
  saveStatus: SaveStatus
  deviceLoaded: boolean
  remoteSynced: boolean
  loadFailedShown: boolean
  /** The sync server closed the socket because this person's access changed. */
  accessChangedClose: boolean
  /** Busy refusals since the connection was last admitted (issue 23): the retry's backoff. */
  busyRefusals: number
}

let sessionsOpened = 0

/**
 * One open project: its Y.Doc and canvas store (made at once, so the first render has
 * them), and, between `start()` and `stop()`, the device copy (y-indexeddb,
 * `reelgraph-project-<id>`), the connection to the sync server (Hocuspocus) and the save
 * tracker.
 *
 * The canvas shows as soon as the device copy is loaded, or, with no copy on the device,
 * once the server's copy arrives (at most `CANVAS_REMOTE_LOAD_TIMEOUT_MS` later; edits made
 * meanwhile merge with it). Without a connection the canvas keeps working from the device
 * copy, reads Unsaved, and syncs when the connection comes back; when that lasts (or the
 * browser is offline, or the server refuses the connection) it reads "Not saved: can't
 * reach the server" (issue 11).
 *
 * When the sync server refuses an update (`update-refused`, issue 11), nothing this client
 * sent from it on was applied, and its Yjs client id can never be applied there again: the
 * session stops at once, drops the device copy and asks to be replaced (`onReopen`).
 * @see ARCHITECTURE decision 6, issue 3 items 5 and 6, issue 11
 */
export class ProjectSession {
  readonly projectId: number
  /** Unique among the sessions of this page: a React key for what shows the session. */
  readonly key = ++sessionsOpened
  readonly doc = new Y.Doc()
  readonly store: CanvasStore
  /** Who else is here (cursors, selections, avatars), over the provider's awareness. */
  readonly presence = new PresenceChannel()
  private running: Connections | null = null
  private closed = false
  /** The connection authenticated at least once: a later refusal means access was lost. */
  private wasAuthenticated = false
  /** The events of the last `start()`, for the store's refusals. */
  private events: ProjectSessionEvents | null = null

  constructor(projectId: number) {
    this.projectId = projectId
    this.store = createCanvasStore(this.doc, {
      onRefused: (reason) => this.events?.onChangeRefused(UPDATE_REFUSAL_MESSAGES[reason]),
    })
  }

  /**
   * The save tracker's latest status (what the pill shows once the canvas is ready: the one
   * save-status store, `@/stores/save-status`); Saved while not started.
   */
  get saveStatus(): SaveStatus {
    return this.running?.saveStatus ?? 'saved'
  }

  /** Opens the device copy and connects to the sync server. */
  start(events: ProjectSessionEvents): void {
    if (this.running || this.closed) return
    this.events = events
    const persistence = new IndexeddbPersistence(deviceCopyName(this.projectId), this.doc)
    const tracker = new SaveTracker({
      doc: this.doc,
      store: pendingStoreOf(persistence),
      onStatus: (saveStatus) => this.showStatus(run, saveStatus),
      onSaveFailed: (message) => events.onSaveFailed(message),
      onUnreachable: () => events.onUnreachable(),
    })
    const provider = new HocuspocusProvider({
      url: syncUrl(window.location),
      name: projectDocumentName(this.projectId),
      document: this.doc,
      onStatus: ({ status }) => {
        if (status !== WebSocketStatus.Connected) tracker.setLinkUp(false)
      },
      onAuthenticated: ({ scope }) => this.authenticated(run, scope, events),
      onClose: ({ event }) => {
        if (isAccessChangedClose(event)) run.accessChangedClose = true
        // The `update-refused` message comes first and stops the session; this is in case
        // the close arrives without it.
        if (isUpdateRefusedClose(event)) this.updateRefused(run, null, events)
      },
      onSynced: () => {
        run.remoteSynced = true
        this.checkReady(run)
      },
      onUnsyncedChanges: ({ number }) => tracker.setUnsyncedChanges(number),
      onStateless: ({ payload }) => {
        const message = parseSyncMessage(payload)
        if (message?.type === SYNC_MESSAGE_TYPES.updateRefused) {
          this.updateRefused(run, message, events)
        } else if (message) {
          tracker.handle(message)
        }
      },
      onAuthenticationFailed: ({ reason }) => this.refused(run, reason, events),
    })
    const run: Connections = {
      persistence,
      provider,
      tracker,
      stopNetworkEvents: this.followNetwork(provider, tracker),
      stopPresence: this.sharePresence(provider),
      timers: new Set(),
      lingerTimer: null,
      saveStatus: 'saved',
      deviceLoaded: false,
      remoteSynced: false,
      loadFailedShown: false,
      accessChangedClose: false,
      busyRefusals: 0,
    }
    this.running = run

    persistence.whenSynced
      .then(async () => {
        if (this.running !== run) return
        const pending = await readPendingChanges(persistence)
        if (this.running !== run) return
        tracker.restore(pending)
        run.deviceLoaded = true
        this.checkReady(run)
      })
      .catch((error: unknown) => console.error('Could not open the device copy', error))

    this.later(run, () => this.checkReady(run, true), CANVAS_REMOTE_LOAD_TIMEOUT_MS)
  }

  /**
   * Disconnects and closes the device copy (it keeps every change; they sync next time).
   * The session can be started again (React runs effects twice in development).
   */
  stop(): void {
    void this.halt()
  }

  // Stops everything at once (the provider first: nothing more is sent); resolves once the
  // device copy's database is closed.
  private halt(): Promise<void> {
    const run = this.running
    if (!run) return Promise.resolve()
    this.running = null
    run.provider.destroy()
    for (const t of run.timers) clearTimeout(t)
    if (run.lingerTimer) clearTimeout(run.lingerTimer)
    run.stopNetworkEvents()
    run.stopPresence()
    run.tracker.destroy()
    // Nothing open, nothing unsaved to show.
    useSaveStatusStore.getState().set({ status: 'saved', savingIndicator: false })
    return run.persistence.destroy().catch(() => {})
  }

  // The sync server refused an update (or closed the connection saying so): this doc holds
  // changes it will never accept, and its client id's later updates would never apply
  // either. Stop before the provider reconnects with it, drop the device copy (which holds
  // them too), and have the project opened again from the server.
  private updateRefused(
    run: Connections,
    message: UpdateRefusedMessage | null,
    events: ProjectSessionEvents,
  ): void {
    if (this.running !== run) return
    this.closed = true
    const halted = this.halt()
    if (message) {
      console.error('The sync server refused a change', message.reason, message.detail ?? '')
    } else {
      console.error('The sync server closed the connection: a change was refused')
    }
    // Nothing more to edit here: the canvas waits for the new session.
    this.store.getState().actions.setSession({ ready: false })
    events.onChangeRefused(message?.message ?? CHANGE_REFUSED_FALLBACK)
    void halted.then(() => clearDeviceCopy(this.projectId)).then(() => events.onReopen())
  }

  // The one save-status store shows the status as it is, once the canvas is ready (until
  // then nothing is known: it keeps its resting Saved); "Saving changes..." stays 2 s after
  // saving ends.
  private showStatus(run: Connections, saveStatus: SaveStatus): void {
    run.saveStatus = saveStatus
    if (this.running !== run || !this.store.getState().session.ready) return
    const saveState = useSaveStatusStore.getState()
    if (run.lingerTimer) clearTimeout(run.lingerTimer)
    run.lingerTimer = null
    if (saveStatus === 'saving') {
      saveState.set({ status: saveStatus, savingIndicator: true })
      return
    }
    saveState.set({ status: saveStatus })
    if (!saveState.savingIndicator) return
    run.lingerTimer = setTimeout(() => {
      run.lingerTimer = null
      if (this.running === run) useSaveStatusStore.getState().set({ savingIndicator: false })
    }, SAVING_INDICATOR_LINGER_MS)
  }

  // The browser knows first when the network goes: disconnect then (edits read "Not saved:
  // can't reach the server" at once rather than waiting on a dead socket) and reconnect at
  // once when it is back, instead of waiting for the provider's next retry (up to 30 s apart).
  private followNetwork(provider: HocuspocusProvider, tracker: SaveTracker): () => void {
    const socket = provider.configuration.websocketProvider
    const offline = () => {
      socket.disconnect()
      tracker.setLinkUp(false)
      tracker.markUnreachable()
    }
    const online = () => void socket.connect()
    window.addEventListener('offline', offline)
    window.addEventListener('online', online)
    return () => {
      window.removeEventListener('offline', offline)
      window.removeEventListener('online', online)
    }
  }

  // Presence rides on the provider's awareness; the selection is read from the store.
  private sharePresence(provider: HocuspocusProvider): () => void {
    const { awareness } = provider
    if (!awareness) return () => {}
    const selectedIds = (nodes: readonly { id: string; selected?: boolean }[]) =>
      nodes.filter((n) => n.selected).map((n) => n.id)
    this.presence.attach(awareness)
    this.presence.setSelected(selectedIds(this.store.getState().nodes))
    const unsubscribe = this.store.subscribe((state, previous) => {
      if (state.nodes !== previous.nodes) this.presence.setSelected(selectedIds(state.nodes))
    })
    return () => {
      unsubscribe()
      this.presence.detach()
    }
  }

  // Ready once the device copy (and what of it is not yet stored) is read, so the pill is
  // right from the first frame, and then at once when it has content or the browser is
  // offline; an empty copy waits for the server's (or the timeout). A device copy that
  // cannot be read at all leaves the timeout.
  private checkReady(run: Connections, timedOut = false): void {
    if (this.running !== run || this.store.getState().session.ready) return
    const offline = navigator.onLine === false
    const ready =
      timedOut || (run.deviceLoaded && (run.remoteSynced || !isDocEmpty(this.doc) || offline))
    if (!ready) return
    this.store.getState().actions.setSession({ ready: true })
    this.showStatus(run, run.saveStatus)
  }

  // The connection's scope is the authority on editing (a viewer's is read-only). A
  // re-authentication may come with another role: the canvas flips live, and says so.
  private authenticated(
    run: Connections,
    scope: AuthorizedScope,
    events: ProjectSessionEvents,
  ): void {
    if (this.running !== run) return
    run.loadFailedShown = false
    run.busyRefusals = 0
    run.tracker.setLinkUp(true)
    const { access, actions } = this.store.getState()
    actions.setAccess({ scope })
    if (this.wasAuthenticated) {
      const toast = accessChangeToast(access.scope, scope, run.accessChangedClose)
      if (toast) events.onAccessChanged(toast)
      events.onReauthenticated()
    }
    this.wasAuthenticated = true
    run.accessChangedClose = false
  }

  // Refused as `unauthenticated`, the person is signed out (the page leaves for /auth), or
  // the server would not take this page's Origin: the save status waits out the grace
  // period like any outage, so a sign-out leaves before any "Not saved" toast.
  private refused(run: Connections, reason: string, events: ProjectSessionEvents): void {
    if (this.running !== run) return
    run.tracker.setLinkUp(false)
    if (reason === SYNC_CLOSE_REASONS.unauthenticated) {
      events.onUnauthenticated()
      return
    }
    const socket = run.provider.configuration.websocketProvider
    if (reason === SYNC_CLOSE_REASONS.serverBusy) {
      // Not an error (issue 23): keep editing on the device copy, say so once, and come back
      // on a new socket (the proxy may pick another replica) after a jittered backoff.
      if (run.busyRefusals === 0) events.onServerBusy?.()
      run.tracker.markBusy()
      socket.disconnect()
      this.later(run, () => reconnectWhenClosed(socket), busyRetryDelayMs(run.busyRefusals))
      run.busyRefusals += 1
      return
    }
    const lost = reason === SYNC_CLOSE_REASONS.notFound && this.wasAuthenticated
    if (!run.loadFailedShown) {
      run.loadFailedShown = true
      if (lost) events.onAccessLost()
      else events.onLoadFailed()
    }
    if (reason === SYNC_CLOSE_REASONS.notFound) {
      // Deleted, removed, or never this person's: the device copy is of no use any more.
      this.store
        .getState()
        .actions.setSession({ failure: lost ? 'access-lost' : 'not-found', ready: true })
      this.closed = true
      this.stop()
      void clearDeviceCopy(this.projectId)
      return
    }
    // The server could not load the document (or refused for a reason this page does not
    // know); nothing was overwritten. Changes cannot get there now: "Not saved" at once
    // (its toast, with unsaved changes, follows Load Failed). Keep editing on the device
    // copy and try again.
    run.tracker.markUnreachable()
    socket.disconnect()
    this.later(run, () => reconnectWhenClosed(socket), SYNC_LOAD_RETRY_MS)
  }

  private later(run: Connections, fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      run.timers.delete(t)
      if (this.running === run) fn()
    }, ms)
    run.timers.add(t)
  }
}
