import {
  addConnection,
  addNode,
  CANVAS_PASTE_OFFSET,
  CANVAS_UNDO_CAPTURE_MS,
  type Connection,
  connectionKey,
  createGraphNode,
  type CutEdit,
  editCut,
  editTimelineSettings,
  type FilmCut,
  getTimelinesMap,
  type GraphNode,
  moveCut,
  splitCut,
  type TimelineCut,
  type TimelineSettings,
  type TimelineValue,
  getConnectionsMap,
  getNodesMap,
  moveNodes,
  type NodeData,
  placeAtNearestFreeSpot,
  type PlacedNode,
  type NodeType,
  readNode,
  readNodeData,
  removeConnections,
  removeNodes,
  type UpdateRefusalReason,
  updateNodeData,
} from '@reelgraph/shared'
import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from '@xyflow/react'
import * as Y from 'yjs'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { type CanvasAccess, INITIAL_ACCESS, nextAccess } from '../lib/access'
import { type ClipboardContent, copyNodes, remapForPaste } from '../lib/clipboard'
import { type GraphCounts, limitRefusal } from '../lib/graph-limits'
import {
  reconcileEdges,
  reconcileNodes,
  toFlowEdge,
  toFlowNode,
  touchedNodeIds,
} from '../lib/flow-nodes'
import type { CanvasEdge, CanvasNode } from '../lib/node-types'
import { PositionWriter } from '../lib/position-writer'
import { type PromptGeneratorType, scenePromptUpdate, startImageUpdate } from '../lib/scene-prompt'

/**
 * Why a project could not be opened from the server: `not-found` (never theirs, or gone
 * before it opened), `access-lost` (it was open and then refused: removed, or deleted,
 * issue 6 item 1), `load-failed`.
 */
export type SessionFailure = 'not-found' | 'access-lost' | 'load-failed'

/** How the project's session is doing: loading, the save status, a refusal. */
export interface SessionStatus {
  /** The canvas can be shown: the device copy is loaded and, without one, the server's too. */
  ready: boolean
  failure: SessionFailure | null
}

/** What {@link CanvasState.connect} did. */
export interface ConnectResult {
  added: boolean
  /** A scene's visuals were copied into an image generator's prompt (spec §4). */
  promptCopied: boolean
  /**
   * The generator's prompt already came from another scene, so nothing was copied: the
   * canvas asks whether this scene's visuals should replace it (issue 14 item 6).
   */
  promptQuestion: PromptQuestion | null
  /**
   * An image node's picture became a Video Generator's start image (issue 22 item 3): the
   * image's label, else null.
   */
  startImage: string | null
}

/** "Replace the prompt with this scene's visuals?" after a second scene was connected. */
export interface PromptQuestion {
  generatorId: string
  /** An image generator, or a Video Generator (issue 22): the dialog names it. */
  generatorType: PromptGeneratorType
  /** The scene that feeds the prompt now, and the one just connected (their labels). */
  currentScene: string
  newScene: string
  patch: { prompt: string; promptFromScene: 'true' }
}

/**
 * The per-project canvas state: React Flow's nodes and edges, projected from the project's
 * Y.Doc, with the actions that edit the doc. Local edits go to the doc in transactions
 * with this store's origin (so undo covers only this person's changes); every change,
 * local or remote, comes back through the doc's observers.
 */
export interface CanvasState {
  nodes: CanvasNode[]
  edges: CanvasEdge[]
  /**
   * Each node's data by id, for the fields inside nodes: they read it from here, updated in
   * the same tick as the doc, rather than through React Flow's props (which follow a render
   * later and would move the caret while typing).
   */
  dataById: ReadonlyMap<string, CanvasNode['data']>
  /**
   * The document's timeline registers (issue 24 item 1), a new map after each change, local
   * or remote: read a Video node's timeline from it with shared's `readTimeline`.
   */
  timelines: ReadonlyMap<string, TimelineValue>
  canUndo: boolean
  canRedo: boolean
  session: SessionStatus
  /** Whether this person may edit (viewers may not, issue 6 item 1); write actions check it. */
  access: CanvasAccess
  actions: CanvasActions
}

/** What the canvas can do; the functions never change for a store. */
export interface CanvasActions {
  /** React Flow's node changes: selection and size stay local, moves go to the doc. */
  onNodesChange: (changes: NodeChange<CanvasNode>[]) => void
  /** React Flow's edge changes: only selection (deletion goes through `deleteElements`). */
  onEdgesChange: (changes: EdgeChange<CanvasEdge>[]) => void
  /**
   * Adds a node of `type` with its defaults at `position` (flow coordinates); returns it, or
   * null when nothing was added (view only, or the project is at its node limit).
   */
  addNode: (type: NodeType, position: { x: number; y: number }) => GraphNode | null
  /**
   * Adds nodes and connections (a generation's result) in one transaction with the local
   * origin: one undo step, and every open editor sees it through the doc. Returns false
   * when nothing was added (view only, nothing to add, or past a limit).
   */
  addGraph: (addition: {
    nodes: readonly GraphNode[]
    connections: readonly Connection[]
  }) => boolean
  /**
   * True when `nodes` more nodes fit in the project; else says so (`onRefused`) and returns
   * false. For edits that cost something before they write, such as a generation.
   */
  hasRoomFor: (nodes: number) => boolean
  /** One node as the doc holds it now (null when it is gone). */
  getNode: (id: string) => GraphNode | null
  /** Writes the fields of `patch` that differ into a node's data. */
  updateNodeData: (id: string, patch: NodeData) => void
  /**
   * Writes defaults the product fills in by itself (the auto-selected image model), outside
   * undo: undoing them would only have them filled in again, a loop the user cannot leave.
   */
  fillNodeDefaults: (id: string, patch: NodeData) => void
  /** Connects two nodes; a duplicate or a self-connection is ignored (spec §4). */
  connect: (connection: { source: string | null; target: string | null }) => ConnectResult
  /** Deletes nodes (with their connections) and connections; returns how many nodes went. */
  deleteElements: (ids: { nodeIds: readonly string[]; edgeIds: readonly string[] }) => number
  /** Copies the selected nodes and the connections between them; returns how many. */
  copySelection: () => number
  /**
   * Pastes the copied nodes (new ids, offset) and selects them; returns how many (0 when
   * nothing was pasted: nothing copied, view only, or past a limit).
   */
  paste: () => number
  /** Selects exactly these nodes (and no edge). */
  selectOnly: (nodeIds: readonly string[]) => void
  /**
   * Timeline edits (issue 24 item 1), each one transaction with the local origin (so undo
   * covers them) through shared's `timeline-doc` helpers; nothing while view only.
   */
  timeline: TimelineActions
  undo: () => void
  redo: () => void
  /** Sets the connection's scope or the REST role; `access.canEdit` follows. */
  setAccess: (patch: Partial<Pick<CanvasAccess, 'scope' | 'role'>>) => void
  /** Sets part of the session status (the session calls it). */
  setSession: (patch: Partial<SessionStatus>) => void
  /** Stops observing the doc. */
  destroy: () => void
}

/** The timeline's edits: shared's `timeline-doc` functions bound to the doc and the local origin. */
export interface TimelineActions {
  editCut: (videoId: string, cut: TimelineCut, edit: CutEdit) => void
  moveCut: (videoId: string, film: readonly FilmCut[], cutId: string, to: number) => void
  splitCut: (videoId: string, input: Parameters<typeof splitCut>[2]) => void
  editSettings: (videoId: string, patch: Partial<TimelineSettings>) => void
  /**
   * Starts a gesture (a drag, or one key's edit): every edit until {@link endGesture} is one
   * undo step however long it lasts, never merged with the edit before or after it.
   */
  beginGesture: () => void
  /** Ends a gesture (harmless when none is under way). */
  endGesture: () => void
}

/** The canvas's nodes as free-space search sees them: with the size React Flow measured. */
function placedNodes(nodes: readonly CanvasNode[]): PlacedNode[] {
  return nodes.map((n) => ({
    id: n.id,
    type: n.type,
    position: n.position,
    size:
      n.measured?.width && n.measured.height
        ? { width: n.measured.width, height: n.measured.height }
        : undefined,
  }))
}

/** A per-project canvas store. */
export type CanvasStore = StoreApi<CanvasState>

/** Options of {@link createCanvasStore}. */
export interface CanvasStoreOptions {
  /**
   * An edit was not made because the sync server would refuse it (a limit, checked before
   * writing: issue 11); the caller tells the person.
   */
  onRefused?: ((reason: UpdateRefusalReason) => void) | undefined
}

// One clipboard per tab, so nodes can be copied from one project and pasted into another.
const clipboard: { content: ClipboardContent | null; pastes: number } = {
  content: null,
  pastes: 0,
}

function dataIndex(nodes: readonly CanvasNode[]): Map<string, CanvasNode['data']> {
  return new Map(nodes.map((n) => [n.id, n.data]))
}

/**
 * `index` after the nodes of `touched` changed: the same map when none of their data did (a
 * move, a drag: readers of data then do nothing), else a copy with theirs replaced
 * (issue 14 item 12: nothing per frame is rebuilt for the whole graph).
 */
function nextDataIndex(
  index: ReadonlyMap<string, CanvasNode['data']>,
  nodes: readonly CanvasNode[],
  touched: ReadonlySet<string>,
): ReadonlyMap<string, CanvasNode['data']> {
  const byId = new Map<string, CanvasNode>()
  for (const n of nodes) if (touched.has(n.id)) byId.set(n.id, n)
  let next: Map<string, CanvasNode['data']> | null = null
  for (const id of touched) {
    const node = byId.get(id)
    if (node ? index.get(id) === node.data : !index.has(id)) continue
    next ??= new Map(index)
    if (node) next.set(id, node.data)
    else next.delete(id)
  }
  return next ?? index
}

/**
 * Creates the canvas store of one project's doc. While `access.canEdit` is false every
 * action that writes to the doc does nothing (the view-only canvas, issue 6 item 1). An
 * edit that would take the project past a limit (MAX_NODES, MAX_CONNECTIONS) is not made
 * and `options.onRefused` says why (issue 11).
 */
export function createCanvasStore(doc: Y.Doc, options: CanvasStoreOptions = {}): CanvasStore {
  const origin = { source: 'canvas', clientID: doc.clientID }
  /** Local writes that undo leaves alone (see `fillNodeDefaults`). */
  const defaultsOrigin = { source: 'canvas-defaults', clientID: doc.clientID }
  const nodesMap = getNodesMap(doc)
  const connectionsMap = getConnectionsMap(doc)
  const timelinesMap = getTimelinesMap(doc)
  const undoManager = new Y.UndoManager([nodesMap, connectionsMap, timelinesMap], {
    trackedOrigins: new Set([origin]),
    captureTimeout: CANVAS_UNDO_CAPTURE_MS,
  })
  const readGraphNode = (id: string) => readNode(id, nodesMap.get(id))
  /** The scenes connected to node `id`, either way, as they are in the doc. */
  const feedingScenes = (id: string): GraphNode[] => {
    const scenes: GraphNode[] = []
    for (const value of connectionsMap.values()) {
      const c = value as Connection
      const other = c.source === id ? c.target : c.target === id ? c.source : null
      const node = other === null ? null : readGraphNode(other)
      if (node?.type === 'scene') scenes.push(node)
    }
    return scenes
  }
  const readConnection = (key: string): Connection | null => {
    const c = connectionsMap.get(key)
    return c && typeof c.source === 'string' && typeof c.target === 'string' ? c : null
  }

  // An add, connect, delete or paste is one undo step of its own, never merged with the
  // typing or moving just before or after it (which merge within CANVAS_UNDO_CAPTURE_MS).
  const ownStep = (edit: () => void) => {
    undoManager.stopCapturing()
    doc.transact(edit, origin)
    undoManager.stopCapturing()
  }

  // True when `adding` fits; else tells the caller's `onRefused` and writes nothing.
  const fits = (adding: GraphCounts) => {
    const current = { nodes: nodesMap.size, connections: connectionsMap.size }
    const refusal = limitRefusal(current, adding)
    if (refusal) options.onRefused?.(refusal)
    return refusal === null
  }

  const writer = new PositionWriter((positions) => moveNodes(doc, positions, origin))
  let dragging = false

  const initialNodes: CanvasNode[] = []
  for (const id of nodesMap.keys()) {
    const node = readGraphNode(id)
    if (node) initialNodes.push(toFlowNode(node))
  }
  const initialEdges: CanvasEdge[] = []
  for (const key of connectionsMap.keys()) {
    const c = readConnection(key)
    if (c) initialEdges.push(toFlowEdge(c))
  }

  const store = createStore<CanvasState>()((set, get) => {
    const canEdit = () => get().access.canEdit
    return {
      nodes: initialNodes,
      edges: initialEdges,
      dataById: dataIndex(initialNodes),
      timelines: new Map(timelinesMap.entries()),
      canUndo: false,
      canRedo: false,
      session: { ready: false, failure: null },
      access: INITIAL_ACCESS,
      actions: {
        onNodesChange: (changes) => {
          let dragEnded = false
          const local: NodeChange<CanvasNode>[] = []
          for (const change of changes) {
            if (change.type === 'remove' || change.type === 'add' || change.type === 'replace')
              continue
            if (change.type === 'position' && !canEdit()) continue
            local.push(change)
            if (change.type !== 'position' || !change.position) continue
            if (change.dragging) {
              if (!dragging) {
                dragging = true
                undoManager.stopCapturing()
              }
            } else {
              dragEnded = true
            }
            writer.queue(change.id, change.position)
          }
          if (local.length > 0) set({ nodes: applyNodeChanges(local, get().nodes) })
          if (dragEnded) {
            writer.flush()
            undoManager.stopCapturing()
            dragging = false
          }
        },

        onEdgesChange: (changes) => {
          const local = changes.filter((c) => c.type === 'select')
          if (local.length > 0) set({ edges: applyEdgeChanges(local, get().edges) })
        },

        addNode: (type, position) => {
          const wanted = createGraphNode(type, position, get().nodes)
          if (!canEdit() || !fits({ nodes: 1, connections: 0 })) return null
          // Never on top of another node (issue 14 item 2): the nearest free place.
          const [node] = placeAtNearestFreeSpot(
            { nodes: [wanted], connections: [] },
            placedNodes(get().nodes),
          ).nodes
          if (!node) return null
          ownStep(() => addNode(doc, node, origin))
          return node
        },

        addGraph: ({ nodes, connections }) => {
          if (!canEdit() || (nodes.length === 0 && connections.length === 0)) return false
          if (!fits({ nodes: nodes.length, connections: connections.length })) return false
          ownStep(() => {
            for (const node of nodes) addNode(doc, node, origin)
            for (const c of connections) addConnection(doc, c, origin)
          })
          return true
        },

        hasRoomFor: (nodes) => fits({ nodes, connections: 0 }),

        getNode: (id) => readGraphNode(id),

        updateNodeData: (id, patch) => {
          if (canEdit()) updateNodeData(doc, id, patch, origin)
        },

        fillNodeDefaults: (id, patch) => {
          if (canEdit()) updateNodeData(doc, id, patch, defaultsOrigin)
        },

        connect: ({ source, target }) => {
          const result: ConnectResult = {
            added: false,
            promptCopied: false,
            promptQuestion: null,
            startImage: null,
          }
          if (!source || !target || !canEdit()) return result
          const isNew = !connectionsMap.has(connectionKey({ source, target }))
          if (isNew && !fits({ nodes: 0, connections: 1 })) return result
          ownStep(() => {
            if (!addConnection(doc, { source, target }, origin)) return
            result.added = true
            const a = readGraphNode(source)
            const b = readGraphNode(target)
            const image = startImageUpdate(a, b)
            if (image) {
              updateNodeData(doc, image.generatorId, image.patch, origin)
              result.startImage = readGraphNode(image.imageId)?.label ?? 'The image'
              return
            }
            const update = scenePromptUpdate(a, b)
            if (!update) return
            const generator = readGraphNode(update.generatorId)
            const sceneId = update.generatorId === source ? target : source
            // Another scene already feeds a prompt that differs: ask, do not overwrite.
            const other = feedingScenes(update.generatorId).find((scene) => scene.id !== sceneId)
            const prompt = generator
              ? readNodeData(update.generatorType, generator.data).prompt
              : ''
            if (other && prompt && prompt !== update.patch.prompt) {
              result.promptQuestion = {
                generatorId: update.generatorId,
                generatorType: update.generatorType,
                currentScene: other.label,
                newScene: readGraphNode(sceneId)?.label ?? 'this scene',
                patch: update.patch,
              }
              return
            }
            updateNodeData(doc, update.generatorId, update.patch, origin)
            result.promptCopied = true
          })
          return result
        },

        deleteElements: ({ nodeIds, edgeIds }) => {
          if (!canEdit()) return 0
          const present = nodeIds.filter((id) => nodesMap.has(id))
          const edges = edgeIds.filter((key) => connectionsMap.has(key))
          if (present.length === 0 && edges.length === 0) return 0
          writer.flush()
          ownStep(() => {
            if (present.length > 0) removeNodes(doc, present, origin)
            if (edges.length > 0) removeConnections(doc, edges, origin)
          })
          return present.length
        },

        copySelection: () => {
          const selected = new Set(
            get()
              .nodes.filter((n) => n.selected)
              .map((n) => n.id),
          )
          if (selected.size === 0) return 0
          const nodes: GraphNode[] = []
          for (const id of selected) {
            const node = readGraphNode(id)
            if (node) nodes.push(node)
          }
          clipboard.content = copyNodes(nodes, [...connectionsMap.values()], selected)
          clipboard.pastes = 0
          return clipboard.content.nodes.length
        },

        paste: () => {
          const content = clipboard.content
          if (!content || content.nodes.length === 0 || !canEdit()) return 0
          if (!fits({ nodes: content.nodes.length, connections: content.connections.length }))
            return 0
          clipboard.pastes += 1
          const step = CANVAS_PASTE_OFFSET * clipboard.pastes
          // Beside the originals, then moved as a block to the nearest free place.
          const copy = placeAtNearestFreeSpot(
            remapForPaste(content, { x: step, y: step }),
            placedNodes(get().nodes),
          )
          ownStep(() => {
            for (const node of copy.nodes) addNode(doc, node, origin)
            for (const c of copy.connections) addConnection(doc, c, origin)
          })
          get().actions.selectOnly(copy.nodes.map((n) => n.id))
          return copy.nodes.length
        },

        selectOnly: (nodeIds) => {
          const wanted = new Set(nodeIds)
          const nodes = get().nodes.map((n) =>
            !!n.selected === wanted.has(n.id) ? n : { ...n, selected: wanted.has(n.id) },
          )
          const edges = get().edges.map((e) => (e.selected ? { ...e, selected: false } : e))
          set({ nodes, edges })
        },

        timeline: {
          editCut: (videoId, cut, edit) => {
            if (canEdit()) editCut(doc, videoId, cut, edit, origin)
          },
          moveCut: (videoId, film, cutId, to) => {
            if (canEdit()) moveCut(doc, videoId, film, cutId, to, origin)
          },
          splitCut: (videoId, input) => {
            if (canEdit()) ownStep(() => splitCut(doc, videoId, input, origin))
          },
          editSettings: (videoId, patch) => {
            if (canEdit()) editTimelineSettings(doc, videoId, patch, origin)
          },
          beginGesture: () => {
            undoManager.stopCapturing()
            undoManager.captureTimeout = Number.POSITIVE_INFINITY
          },
          endGesture: () => {
            undoManager.captureTimeout = CANVAS_UNDO_CAPTURE_MS
            undoManager.stopCapturing()
          },
        },

        undo: () => {
          if (!canEdit()) return
          writer.flush()
          undoManager.undo()
        },

        redo: () => {
          if (!canEdit()) return
          writer.flush()
          undoManager.redo()
        },

        setAccess: (patch) => {
          const access = nextAccess(get().access, patch)
          const prev = get().access
          if (
            access.scope === prev.scope &&
            access.role === prev.role &&
            access.canEdit === prev.canEdit
          )
            return
          set({ access })
        },

        setSession: (patch) => {
          const prev = get().session
          const session = { ...prev, ...patch }
          // A new object only when a field changed, so readers re-render only then.
          const keys = Object.keys(session) as (keyof SessionStatus)[]
          if (keys.every((key) => session[key] === prev[key])) return
          set({ session })
        },

        destroy: () => {
          writer.dispose()
          nodesMap.unobserveDeep(onNodes)
          connectionsMap.unobserve(onConnections)
          timelinesMap.unobserve(onTimelines)
          undoManager.off('stack-item-added', onStacks)
          undoManager.off('stack-item-popped', onStacks)
          undoManager.off('stack-cleared', onStacks)
          undoManager.destroy()
        },
      },
    }
  })

  const onNodes = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => {
    const touched = touchedNodeIds(events, nodesMap)
    if (touched.size === 0) return
    const { nodes } = store.getState()
    const next = reconcileNodes(nodes, touched, readGraphNode)
    if (next === nodes) return
    const { dataById } = store.getState()
    store.setState({ nodes: next, dataById: nextDataIndex(dataById, next, touched) })
  }
  const onConnections = (event: Y.YMapEvent<Connection>) => {
    const { edges } = store.getState()
    const next = reconcileEdges(edges, event.keysChanged, readConnection)
    if (next !== edges) store.setState({ edges: next })
  }
  const onTimelines = () => store.setState({ timelines: new Map(timelinesMap.entries()) })
  const onStacks = () => {
    const canUndo = undoManager.canUndo()
    const canRedo = undoManager.canRedo()
    const state = store.getState()
    if (state.canUndo !== canUndo || state.canRedo !== canRedo) store.setState({ canUndo, canRedo })
  }
  nodesMap.observeDeep(onNodes)
  connectionsMap.observe(onConnections)
  timelinesMap.observe(onTimelines)
  undoManager.on('stack-item-added', onStacks)
  undoManager.on('stack-item-popped', onStacks)
  undoManager.on('stack-cleared', onStacks)

  return store
}
