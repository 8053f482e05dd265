import { CANVAS_ZOOM_BUTTON_STEP } from '@reelgraph/shared'
import { Panel, useReactFlow, useStore } from '@xyflow/react'
import {
  Maximize2Icon,
  Redo2Icon,
  RotateCcwIcon,
  Undo2Icon,
  ZoomInIcon,
  ZoomOutIcon,
} from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { useCanEdit } from '../hooks/use-can-edit'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useFitView } from '../hooks/use-fit-view'
import { useUndoRedoState } from '../hooks/use-undo-redo-state'
import { RunStaleButton } from './run-stale-button'
import { stepZoom, zoomPercent } from '../lib/viewport'

const ANIMATION_MS = 150

function ControlButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string
  onClick: () => void
  disabled?: boolean
  children: ReactNode
}) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className="size-8"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
    >
      {children}
    </Button>
  )
}

/**
 * The canvas controls (spec §2, §9): zoom out and in by 0.1 with the zoom in percent
 * between them, fit view, reset view, undo and redo. Every button is labelled.
 */
export function CanvasControls() {
  const { zoomTo, setViewport } = useReactFlow()
  const zoom = useStore((s) => s.transform[2])
  const { canUndo, canRedo } = useUndoRedoState()
  const { undo, redo } = useCanvasActions()
  const canEdit = useCanEdit()
  const fitView = useFitView()
  return (
    <Panel position="bottom-left" className="m-3!">
      <div
        role="toolbar"
        aria-label="Canvas controls"
        // Fit view keeps nodes from under it (lib/canvas-overlays.ts).
        data-canvas-overlay
        className="flex items-center gap-0.5 rounded-lg border bg-background/95 p-1 shadow-sm"
      >
        <ControlButton
          label="Zoom out"
          onClick={() =>
            void zoomTo(stepZoom(zoom, -CANVAS_ZOOM_BUTTON_STEP), { duration: ANIMATION_MS })
          }
        >
          <ZoomOutIcon aria-hidden />
        </ControlButton>
        <output
          aria-label="Zoom level"
          aria-live="polite"
          className="w-12 text-center font-medium text-xs tabular-nums"
        >
          {zoomPercent(zoom)}
        </output>
        <ControlButton
          label="Zoom in"
          onClick={() =>
            void zoomTo(stepZoom(zoom, CANVAS_ZOOM_BUTTON_STEP), { duration: ANIMATION_MS })
          }
        >
          <ZoomInIcon aria-hidden />
        </ControlButton>
        <span className="mx-1 h-5 w-px bg-border" aria-hidden />
        <ControlButton label="Fit view" onClick={fitView}>
          <Maximize2Icon aria-hidden />
        </ControlButton>
        <ControlButton
          label="Reset view"
          onClick={() => void setViewport({ x: 0, y: 0, zoom: 1 }, { duration: ANIMATION_MS })}
        >
          <RotateCcwIcon aria-hidden />
        </ControlButton>
        <span className="mx-1 h-5 w-px bg-border" aria-hidden />
        <ControlButton label="Undo" onClick={undo} disabled={!canUndo || !canEdit}>
          <Undo2Icon aria-hidden />
        </ControlButton>
        <ControlButton label="Redo" onClick={redo} disabled={!canRedo || !canEdit}>
          <Redo2Icon aria-hidden />
        </ControlButton>
        {canEdit ? (
          <>
            <span className="mx-1 h-5 w-px bg-border" aria-hidden />
            {/* Issue 42 item 4: run only what is stale, priced before it starts. */}
            <RunStaleButton />
          </>
        ) : null}
      </div>
    </Panel>
  )
}
