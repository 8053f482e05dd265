import { useReactFlow, useStoreApi } from '@xyflow/react'
import { useCallback } from 'react'
import { measureCanvasOverlays } from '../lib/canvas-overlays'
import { fitCanvasViewport, type Viewport } from '../lib/viewport'

/** How long fit view's move takes, in ms. */
export const FIT_VIEW_ANIMATION_MS = 150

/**
 * The fitted viewport of the canvas now (spec §9; issue 42 item 5): every node, as large as
 * fits up to 100 %, in the area the minimap, the toolbar and the Nodes Library leave free,
 * their boxes measured on the page at the call (`lib/canvas-overlays.ts`). Null when there
 * are no nodes.
 */
export function useFittedViewport(): () => Viewport | null {
  const { getNodes } = useReactFlow()
  const store = useStoreApi()
  return useCallback(() => {
    const { width, height, domNode } = store.getState()
    const overlays = domNode ? measureCanvasOverlays(domNode) : undefined
    return fitCanvasViewport(getNodes(), { width, height }, overlays)
  }, [getNodes, store])
}

/** Fit view: moves the view, animated, to {@link useFittedViewport}'s. */
export function useFitView(): () => void {
  const fitted = useFittedViewport()
  const { setViewport } = useReactFlow()
  return useCallback(() => {
    const viewport = fitted()
    if (viewport) void setViewport(viewport, { duration: FIT_VIEW_ANIMATION_MS })
  }, [fitted, setViewport])
}
