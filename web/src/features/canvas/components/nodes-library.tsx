import { NODE_FOOTPRINTS, type NodeType } from '@reelgraph/shared'
import { useReactFlow, useStore } from '@xyflow/react'
import {
  ClapperboardIcon,
  FileTextIcon,
  FilmIcon,
  type LucideIcon,
  PlusIcon,
  TypeIcon,
  VideoIcon,
} from 'lucide-react'
import type { DragEvent } from 'react'
import { Button } from '@/components/ui/button'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { LIBRARY_DRAG_MIME, LIBRARY_ENTRIES } from '../lib/node-defaults'
import { toastNodeAdded } from './node-added-toast'

const ICONS: Partial<Record<NodeType, LucideIcon>> = {
  'script-generator': FileTextIcon,
  scene: ClapperboardIcon,
  'editable-text': TypeIcon,
  'video-generator': VideoIcon,
  video: FilmIcon,
}

const QUICK_TIPS = [
  'Drag a node onto the canvas, or press its + button to add it in the middle.',
  'Drag from a node’s right handle to another node’s left handle to connect them.',
  'Connect a scene to an image generator to use its visuals as the prompt.',
  'Connect an image to a Video Generator to start its clip from that picture.',
  'Drag the background to pan; scroll to zoom. Shift+drag selects several nodes.',
  'Delete or Backspace removes the selection; Ctrl+Z undoes, Ctrl+Shift+Z redoes.',
  'Ctrl+C and Ctrl+V copy and paste nodes with the connections between them.',
]

/** Screen pixels kept between the canvas' top edge and a node added there. */
const ADD_TOP_MARGIN_PX = 16

/**
 * Adds a node of a type in the middle of the visible canvas, with the "Node Added" toast:
 * centred by its type's footprint, so a tall node (a Script Generator is about 485 px) is
 * whole on a 1280x720 screen with its last button in reach, and never with its title above
 * the canvas' top edge.
 */
function useAddInView(): (type: NodeType) => void {
  const { addNode } = useCanvasActions()
  const { screenToFlowPosition } = useReactFlow()
  const domNode = useStore((s) => s.domNode)
  return (type: NodeType) => {
    const rect = domNode?.getBoundingClientRect()
    const center = rect
      ? screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 })
      : { x: 0, y: 0 }
    const top = rect
      ? screenToFlowPosition({ x: rect.left, y: rect.top + ADD_TOP_MARGIN_PX }).y
      : -Infinity
    const footprint = NODE_FOOTPRINTS[type]
    const position = {
      x: Math.round(center.x - footprint.width / 2),
      y: Math.round(Math.max(top, center.y - footprint.height / 2)),
    }
    // The store moves it to the nearest free place when something is there.
    if (addNode(type, position)) toastNodeAdded(type)
  }
}

/**
 * The Nodes Library on narrow screens, where there is no room for the panel (and no drag
 * and drop on touch): one add button per entry, above the canvas.
 */
export function NodesLibraryBar() {
  const addInView = useAddInView()
  return (
    <div
      role="toolbar"
      aria-label="Add a node"
      className="flex gap-2 overflow-x-auto border-b px-4 py-2 md:hidden"
    >
      {LIBRARY_ENTRIES.map((entry) => (
        <Button
          key={entry.type}
          type="button"
          size="sm"
          variant="outline"
          onClick={() => addInView(entry.type)}
        >
          <PlusIcon aria-hidden />
          {entry.title}
        </Button>
      ))}
    </div>
  )
}

/**
 * The Nodes Library (spec §2): drag-and-drop entries for the script generator, scene and
 * text node, each also addable with its button (keyboard users), and Quick Tips. Shown
 * from the `md` breakpoint; {@link NodesLibraryBar} stands in below it.
 */
export function NodesLibrary() {
  const addInView = useAddInView()

  const onDragStart = (event: DragEvent, type: NodeType) => {
    event.dataTransfer.setData(LIBRARY_DRAG_MIME, type)
    event.dataTransfer.effectAllowed = 'copy'
  }

  return (
    <aside
      aria-labelledby="nodes-library-title"
      className="hidden w-64 shrink-0 flex-col gap-4 overflow-y-auto border-r bg-background p-4 md:flex"
    >
      <div className="grid gap-1">
        <h2 id="nodes-library-title" className="font-semibold text-sm">
          Nodes Library
        </h2>
        <p className="text-muted-foreground text-xs">Drag a node onto the canvas.</p>
      </div>
      <ul className="grid gap-2">
        {LIBRARY_ENTRIES.map((entry) => {
          const Icon = ICONS[entry.type] ?? PlusIcon
          return (
            <li key={entry.type}>
              <div
                draggable
                onDragStart={(event) => onDragStart(event, entry.type)}
                data-node-type={entry.type}
                className="group flex cursor-grab items-start gap-3 rounded-lg border bg-card p-3 shadow-xs transition-colors hover:border-primary/50 hover:bg-accent/50 active:cursor-grabbing"
              >
                <Icon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <span className="font-medium text-sm">{entry.title}</span>
                  <span className="text-muted-foreground text-xs">{entry.description}</span>
                </div>
                <button
                  type="button"
                  onClick={() => addInView(entry.type)}
                  aria-label={`Add ${entry.title}`}
                  title={`Add ${entry.title}`}
                  className="rounded-md p-1 text-muted-foreground outline-none hover:bg-background hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  <PlusIcon className="size-4" aria-hidden />
                </button>
              </div>
            </li>
          )
        })}
      </ul>
      <section aria-labelledby="quick-tips-title" className="grid gap-2 rounded-lg bg-muted/60 p-3">
        <h3 id="quick-tips-title" className="font-semibold text-xs uppercase tracking-wide">
          Quick Tips
        </h3>
        <ul className="grid list-disc gap-1.5 pl-4 text-muted-foreground text-xs">
          {QUICK_TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </section>
    </aside>
  )
}
