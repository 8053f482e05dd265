import { CANVAS_ZOOM_WHEEL_STEP } from '@reelgraph/shared'
import { useReactFlow } from '@xyflow/react'
import { type RefObject, useEffect } from 'react'
import { zoomAroundPoint } from '../lib/viewport'

/** Wheel travel (px) that makes one zoom step: one notch of a mouse wheel in Chromium. */
const WHEEL_NOTCH_PX = 100

/**
 * Wheel zoom in steps of 0.05 around the pointer (spec §9), instead of React Flow's
 * continuous zoom. Small deltas (touchpads) add up to a step. Scrolling inside a node's
 * scrollable field (`nowheel`) scrolls it instead.
 */
export function useWheelZoom(ref: RefObject<HTMLElement | null>): void {
  const { getViewport, setViewport } = useReactFlow()
  useEffect(() => {
    const element = ref.current
    if (!element) return
    let travel = 0
    const onWheel = (event: WheelEvent) => {
      if (event.target instanceof Element && event.target.closest('.nowheel, .react-flow__minimap'))
        return
      // Ours alone: React Flow's own wheel handling (pinch zoom) never sees it.
      event.preventDefault()
      event.stopPropagation()
      // Line or page deltas (Firefox): one event is one notch.
      const delta = event.deltaMode === 0 ? event.deltaY : Math.sign(event.deltaY) * WHEEL_NOTCH_PX
      travel += delta
      if (Math.abs(travel) < WHEEL_NOTCH_PX) return
      const steps = Math.trunc(travel / WHEEL_NOTCH_PX)
      travel -= steps * WHEEL_NOTCH_PX
      const rect = element.getBoundingClientRect()
      const viewport = getViewport()
      void setViewport(
        zoomAroundPoint(
          viewport,
          { x: event.clientX - rect.left, y: event.clientY - rect.top },
          viewport.zoom - steps * CANVAS_ZOOM_WHEEL_STEP,
        ),
      )
    }
    element.addEventListener('wheel', onWheel, { passive: false, capture: true })
    return () => element.removeEventListener('wheel', onWheel, { capture: true })
  }, [ref, getViewport, setViewport])
}
