import '@xyflow/react/dist/style.css'
import {
  CANVAS_GRID_SIZE,
  CANVAS_MAX_ZOOM,
  CANVAS_MIN_ZOOM,
  NODE_TYPES,
  type NodeType,
} from '@reelgraph/shared'
import {
  Background,
  BackgroundVariant,
  ConnectionLineType,
  type Connection,
  type Edge,
  MiniMap,
  type OnDelete,
  ReactFlow,
  useReactFlow,
} from '@xyflow/react'
import { type DragEvent, type PointerEvent, useCallback, useRef, useState } from 'react'
import { toast } from '@/hooks/use-toast'
import { useCanEdit } from '../hooks/use-can-edit'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useAccessibleEdges } from '../hooks/use-accessible-edges'
import { useCanvasEdges } from '../hooks/use-canvas-edges'
import { useCanvasNodes } from '../hooks/use-canvas-nodes'
import { useCanvasShortcuts } from '../hooks/use-canvas-shortcuts'
import { useCanvasStoreApi } from '../hooks/use-canvas-store'
import { usePresenceChannel } from '../hooks/use-presence'
import { useWheelZoom } from '../hooks/use-wheel-zoom'
import { CANVAS_TOASTS } from '../lib/canvas-messages'
import { LIBRARY_DRAG_MIME } from '../lib/node-defaults'
import type { CanvasEdge, CanvasNode } from '../lib/node-types'
import { fitCanvasViewport, MINIMAP_SIZE, type Viewport } from '../lib/viewport'
import { useFollowResults } from '../hooks/use-follow-results'
import type { PromptQuestion } from '../stores/canvas-store'
import { ReplacePromptDialog } from './replace-prompt-dialog'
import { NODE_COMPONENTS } from '../nodes/node-types'
import { CanvasControls } from './canvas-controls'
import { toastNodeAdded } from './node-added-toast'
import { PresenceCursors } from './presence-cursors'

const MULTI_SELECT_KEYS = ['Shift', 'Meta', 'Control']
const DELETE_KEYS = ['Delete', 'Backspace']
const SNAP_GRID: [number, number] = [CANVAS_GRID_SIZE, CANVAS_GRID_SIZE]
/** The minimap's size (one object: FlowCanvas renders on every drag frame). */
const MINIMAP_STYLE = { width: MINIMAP_SIZE.width, height: MINIMAP_SIZE.height }
const DEFAULT_EDGE_OPTIONS = { type: 'smoothstep' } as const
const DEFAULT_VIEWPORT: Viewport = { x: 0, y: 0, zoom: 1 }
/** Past this many nodes, only those in view are rendered. */
const RENDER_VISIBLE_ONLY_FROM = 300

function isNodeType(value: string): value is NodeType {
  return (NODE_TYPES as readonly string[]).includes(value)
}

/**
 * The React Flow canvas bound to the open project's store (spec §2 canvas, §4 Canvas
 * behaviour, §9 Canvas): pan by dragging the background, wheel zoom in 0.05 steps,
 * limits 0.05 to 2.5, a 20-unit grid, bezier connections, box select with Shift+drag,
 * Shift/Ctrl/Cmd+click to add to the selection, Delete/Backspace to delete, drop from the
 * Nodes Library, a minimap and the controls. For a viewer nothing moves, connects or
 * deletes (issue 6 item 1); panning, zooming and selecting (shown to others) still work.
 */
export function FlowCanvas() {
  const nodes = useCanvasNodes()
  const edges = useAccessibleEdges(useCanvasEdges())
  const actions = useCanvasActions()
  const store = useCanvasStoreApi()
  const canEdit = useCanEdit()
  const { screenToFlowPosition } = useReactFlow<CanvasNode, CanvasEdge>()
  const presence = usePresenceChannel()
  const wrapper = useRef<HTMLDivElement>(null)
  useWheelZoom(wrapper)
  useCanvasShortcuts()

  const [promptQuestion, setPromptQuestion] = useState<PromptQuestion | null>(null)
  const onConnect = useCallback(
    (connection: Connection) => {
      const result = actions.connect(connection)
      if (result.promptCopied) toast({ ...CANVAS_TOASTS.promptUpdated })
      if (result.promptQuestion) setPromptQuestion(result.promptQuestion)
      if (result.startImage) {
        toast({
          ...CANVAS_TOASTS.startImageSet,
          description: `${result.startImage} is the clip’s first frame`,
        })
      }
    },
    [actions],
  )
  const onPromptAnswer = useCallback(
    (replace: boolean) => {
      if (replace && promptQuestion) {
        actions.updateNodeData(promptQuestion.generatorId, promptQuestion.patch)
        toast({ ...CANVAS_TOASTS.promptUpdated })
      }
      setPromptQuestion(null)
    },
    [actions, promptQuestion],
  )

  const isValidConnection = useCallback(
    (c: Connection | Edge) =>
      c.source !== c.target &&
      !store.getState().edges.some((e) => e.source === c.source && e.target === c.target),
    [store],
  )

  const onDelete: OnDelete<CanvasNode, CanvasEdge> = useCallback(
    ({ nodes: gone, edges: cut }) => {
      const count = actions.deleteElements({
        nodeIds: gone.map((n) => n.id),
        edgeIds: cut.map((e) => e.id),
      })
      if (count > 0) {
        toast({
          ...CANVAS_TOASTS.nodeDeleted,
          description: count === 1 ? '1 node removed' : `${count} nodes removed`,
        })
      }
    },
    [actions],
  )

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(LIBRARY_DRAG_MIME)) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
  }, [])

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(LIBRARY_DRAG_MIME)
      if (!isNodeType(type) || !store.getState().access.canEdit) return
      event.preventDefault()
      const position = screenToFlowPosition({ x: event.clientX, y: event.clientY })
      if (actions.addNode(type, position)) toastNodeAdded(type)
    },
    [actions, screenToFlowPosition, store],
  )

  // The cursor others see, in flow coordinates (the channel throttles it); gone on leave.
  useFollowResults()
  const onPointerMove = useCallback(
    (event: PointerEvent) => {
      presence?.setCursor(screenToFlowPosition({ x: event.clientX, y: event.clientY }))
    },
    [presence, screenToFlowPosition],
  )
  const onPointerLeave = useCallback(() => presence?.setCursor(null), [presence])

  // Open on the whole graph (spec §9: fit with padding 100, unmeasured nodes 300 x 200),
  // computed before React Flow's first render: a large graph then renders zoomed out, in
  // compact nodes, instead of in full at 100% first.
  const [initialViewport, setInitialViewport] = useState<Viewport | null>(null)
  const measure = useCallback(
    (element: HTMLDivElement | null) => {
      wrapper.current = element
      if (!element) return
      setInitialViewport(
        (current) =>
          current ??
          fitCanvasViewport(store.getState().nodes, element.getBoundingClientRect()) ??
          DEFAULT_VIEWPORT,
      )
    },
    [store],
  )

  return (
    <div
      ref={measure}
      className="absolute inset-0"
      onDragOver={onDragOver}
      onDrop={onDrop}
      onPointerMove={onPointerMove}
      onPointerLeave={onPointerLeave}
    >
      {initialViewport ? (
        <ReactFlow<CanvasNode, CanvasEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_COMPONENTS}
          onNodesChange={actions.onNodesChange}
          onEdgesChange={actions.onEdgesChange}
          onConnect={onConnect}
          isValidConnection={isValidConnection}
          onDelete={onDelete}
          defaultViewport={initialViewport}
          minZoom={CANVAS_MIN_ZOOM}
          maxZoom={CANVAS_MAX_ZOOM}
          zoomOnScroll={false}
          zoomOnDoubleClick={false}
          panOnDrag
          selectionKeyCode="Shift"
          multiSelectionKeyCode={MULTI_SELECT_KEYS}
          deleteKeyCode={canEdit ? DELETE_KEYS : null}
          nodesDraggable={canEdit}
          nodesConnectable={canEdit}
          snapGrid={SNAP_GRID}
          defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
          edgesFocusable={false}
          connectionLineType={ConnectionLineType.SmoothStep}
          onlyRenderVisibleElements={nodes.length > RENDER_VISIBLE_ONLY_FROM}
          aria-label="Project canvas"
        >
          <Background variant={BackgroundVariant.Dots} gap={CANVAS_GRID_SIZE} size={1.5} />
          <MiniMap
            pannable
            zoomable
            ariaLabel="Minimap"
            className="hidden sm:block"
            style={MINIMAP_STYLE}
          />
          <CanvasControls />
          <PresenceCursors />
        </ReactFlow>
      ) : null}
      <ReplacePromptDialog question={promptQuestion} onAnswer={onPromptAnswer} />
    </div>
  )
}
