import { CANVAS_COMPACT_NODE_ZOOM } from '@reelgraph/shared'
import { useReactFlow, useStoreApi } from '@xyflow/react'
import { useCallback, useEffect, useRef } from 'react'
import { FIT_VIEW_ANIMATION_MS, useFittedViewport } from './use-fit-view'
import { useNodeJob } from './use-node-job'

/**
 * How long the canvas' node sizes must stay still before the view is fitted, in ms: the Video
 * node grows by its player when the render's result lands, a frame or two later.
 */
const SETTLE_MS = 300
/** Fit at the latest this long after the chain ended, in ms, whatever keeps changing. */
const SETTLE_MAX_MS = 3_000

/**
 * Fit view after a "Make video" this person started on Script Generator `nodeId` has
 * succeeded (issue 42 item 5): once the nodes' sizes have settled, the view fits the whole
 * graph, laid out in columns, in the area the overlays leave free. Only when that keeps the
 * nodes readable (a zoom of at least `CANVAS_COMPACT_NODE_ZOOM`, where nodes are shown whole,
 * the Video node with its player): otherwise, and while the person is dragging a node, the
 * view stays where following the chain left it (issue 20 item 3: the new video in full view).
 * Other members' views never move.
 * @returns `started(jobId)`: tell it the job the person's click started.
 */
export function useFitAfterMakeVideo(nodeId: string): (jobId: string) => void {
  const job = useNodeJob(nodeId)
  const startedJob = useRef<string | null>(null)
  const fitted = useFittedViewport()
  const { setViewport } = useReactFlow()
  const flow = useStoreApi()
  const succeeded = job?.status === 'succeeded' ? job.id : null

  useEffect(() => {
    if (succeeded === null || succeeded !== startedJob.current) return
    startedJob.current = null
    let quiet: ReturnType<typeof setTimeout> | undefined
    const fit = () => {
      clearTimeout(quiet)
      clearTimeout(latest)
      unsubscribe()
      if (flow.getState().nodes.some((n) => n.dragging)) return
      const viewport = fitted()
      if (viewport && viewport.zoom >= CANVAS_COMPACT_NODE_ZOOM) {
        void setViewport(viewport, { duration: FIT_VIEW_ANIMATION_MS })
      }
    }
    const wait = () => {
      clearTimeout(quiet)
      quiet = setTimeout(fit, SETTLE_MS)
    }
    const unsubscribe = flow.subscribe((state, previous) => {
      if (state.nodes !== previous.nodes) wait()
    })
    const latest = setTimeout(fit, SETTLE_MAX_MS)
    wait()
    return () => {
      clearTimeout(quiet)
      clearTimeout(latest)
      unsubscribe()
    }
  }, [succeeded, fitted, flow, setViewport])

  return useCallback((jobId: string) => {
    startedJob.current = jobId
  }, [])
}
