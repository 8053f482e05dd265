import { NODE_FOOTPRINTS } from '@reelgraph/shared'
import { useReactFlow, useStore, useStoreApi } from '@xyflow/react'
import { useEffect } from 'react'
import type { CanvasNode } from '../lib/node-types'
import { type FlowBox, followViewport, isOnScreen, type Viewport } from '../lib/viewport'
import { useCanvasStoreApi } from './use-canvas-store'

/** How long the view takes to pan to a new result, in ms: quick, but followable by eye. */
export const FOLLOW_PAN_MS = 400
/**
 * How long a follow's pan counts as on its way at most, in ms, when React Flow never says it
 * ended: a pan interrupted (by a newer one, a zoom button, the wheel) never does. A pan that
 * completes says so when it does, however long a busy page takes to draw it (under load its
 * last frame came after FOLLOW_PAN_MS + 100 ms, and the view, still short of where the
 * follow sent it, read as moved by the person: CI's newcomer run found the Video node off
 * screen).
 */
const FOLLOW_PAN_LIMIT_MS = 3_000

/** A node's box in flow coordinates: as measured, else its type's nominal footprint. */
function boxOf(node: CanvasNode): FlowBox {
  const size = NODE_FOOTPRINTS[node.type]
  return {
    x: node.position.x,
    y: node.position.y,
    width: node.measured?.width ?? size.width,
    height: node.measured?.height ?? size.height,
  }
}

const isMeasured = (node: CanvasNode | undefined) =>
  !!node?.measured?.width && !!node.measured.height

/** True when two viewports show the same thing (to under a pixel and a tenth of a percent). */
function sameView(a: Viewport, b: Viewport): boolean {
  return Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1 && Math.abs(a.zoom - b.zoom) < 0.001
}

/** The last results the view followed, until React Flow has measured them. */
interface Pending {
  results: string[]
  sources: string[]
}

/** The last results the view followed, with the largest sizes it has followed them at. */
interface Followed extends Pending {
  /** Width and height of each result, in flow units. */
  sizes: Map<string, { width: number; height: number }>
  /** Moves left for growth: a bound, whatever the nodes do. */
  checksLeft: number
}

/** Where a follow left the view, and whether its pan there has ended. */
interface Trip {
  view: Viewport
  /** When the pan started (Date.now()); 0 when the view stayed. */
  at: number
  /** The pan has ended (or there was none). */
  ended: boolean
}

/** How often the view moves again to follow the same results as they grow. */
const GROWTH_CHECKS = 3

const sizeOf = (node: CanvasNode | undefined) => ({
  width: node?.measured?.width ?? 0,
  height: node?.measured?.height ?? 0,
})

/** The nodes of `ids` that are on the canvas (`byId`), in that order. */
function nodesIn(byId: ReadonlyMap<string, CanvasNode>, ids: readonly string[]): CanvasNode[] {
  return ids.map((id) => byId.get(id)).filter((n): n is CanvasNode => n !== undefined)
}

function followedAt(ids: Pending, nodes: readonly CanvasNode[]): Followed {
  return { ...ids, sizes: new Map(nodes.map((n) => [n.id, sizeOf(n)])), checksLeft: GROWTH_CHECKS }
}

/**
 * The view follows a new result (issue 14 item 3, issue 20 item 3): when nodes appear that
 * are connected to a node on screen (a generation's result beside its generator), or to a
 * result it followed while the view has stayed where that follow left it (a made video's
 * scenes, images and Video node, each connected to the step before), and they are not
 * already in full view, clear of the minimap and the controls, or their source is not, the
 * view moves, animated, as {@link followViewport} says: as little as it can, never zooming
 * in past 100 %, keeping the source (the node on screen they are connected to) inside the
 * canvas (not under the Nodes Library) while both fit at a readable zoom. Until the results
 * are measured it goes by their types' nominal sizes, then checks once more with the real
 * ones, and again whenever the last results followed change size while the view stays where
 * the follow left it (a Video node grows by its player when its render ends). Nodes that appear unconnected (another person's additions), or while this person is
 * dragging, never move the view; once the person moves it, earlier results no longer pull it.
 */
export function useFollowResults(): void {
  const store = useCanvasStoreApi()
  const { getViewport, setViewport } = useReactFlow()
  const flow = useStoreApi<CanvasNode>()
  const width = useStore((s) => s.width)
  const height = useStore((s) => s.height)

  useEffect(() => {
    const known = new Set(store.getState().nodes.map((n) => n.id))
    let pending: Pending | null = null
    let followed: Followed | null = null
    // The results followed since this person last moved the view, and where the view was left.
    let trail = new Set<string>()
    let left: Trip | null = null
    // A growth seen mid-pan, checked once the pan ends; the bound on a pan that never ends.
    let growthWaiting = false
    let panLimit: ReturnType<typeof setTimeout> | undefined

    const inFlight = () =>
      left !== null && !left.ended && Date.now() - left.at < FOLLOW_PAN_LIMIT_MS
    // Where the view is: while it is on its way to where a follow sent it, there.
    const viewNow = () => (left && inFlight() ? left.view : getViewport())
    // The person moved the view after the last follow.
    const movedByPerson = () => left !== null && !inFlight() && !sameView(getViewport(), left.view)

    const follow = (
      results: readonly CanvasNode[],
      sources: readonly CanvasNode[],
      from: Viewport,
    ): boolean => {
      const next = followViewport(
        from,
        { width, height },
        { results: results.map(boxOf), sources: sources.map(boxOf) },
      )
      if (!next) {
        left = { view: from, at: 0, ended: true }
        return false
      }
      const trip: Trip = { view: next, at: Date.now(), ended: false }
      left = trip
      // React Flow resolves the pan's promise when its last frame is drawn; an interrupted
      // pan never resolves it, so a timer bounds the wait.
      const end = () => {
        if (trip.ended) return
        trip.ended = true
        if (left !== trip || !growthWaiting) return
        growthWaiting = false
        checkGrowth()
      }
      void setViewport(next, { duration: FOLLOW_PAN_MS }).then(end)
      clearTimeout(panLimit)
      panLimit = setTimeout(end, FOLLOW_PAN_LIMIT_MS)
      return true
    }

    // The results followed last grew (a Video node gains its player, then its downloads, when
    // its render ends): check the view again. Growth only, so nodes turning compact as the
    // view zooms out and back never make the view chase them. A growth while the view is
    // still on its way is checked when it arrives: clicks never land on moving nodes, and the
    // last growth is not lost (the downloads came 100 ms after the player, mid-pan, and
    // stayed under the minimap).
    const checkGrowth = (): void => {
      if (!followed || followed.checksLeft === 0 || movedByPerson()) return
      if (inFlight()) {
        growthWaiting = true
        return
      }
      const byId = new Map(store.getState().nodes.map((n) => [n.id, n]))
      const now = nodesIn(byId, followed.results)
      if (now.length !== followed.results.length || !now.every(isMeasured)) return
      if (store.getState().nodes.some((n) => n.dragging)) return
      const sizes = followed.sizes
      const grew = now.filter((n) => {
        const was = sizes.get(n.id)!
        const is = sizeOf(n)
        return is.width > was.width + 1 || is.height > was.height + 1
      })
      if (grew.length === 0) return
      for (const n of grew) sizes.set(n.id, sizeOf(n))
      const sources = nodesIn(byId, followed.sources)
      // Only a growth that moved the view counts against the bound.
      if (follow(now, sources, viewNow())) followed.checksLeft -= 1
    }

    const unsubscribe = store.subscribe((state, previous) => {
      if (state.nodes === previous.nodes) return
      const fresh = state.nodes.filter((n) => !known.has(n.id))
      for (const n of fresh) known.add(n.id)
      if (width === 0 || height === 0 || state.nodes.some((n) => n.dragging)) {
        pending = null
        return
      }
      const byId = new Map(state.nodes.map((n) => [n.id, n]))
      const nodesOf = (ids: readonly string[]) => nodesIn(byId, ids)

      if (fresh.length === 0) {
        if (!pending) {
          checkGrowth()
          return
        }
        // The results followed last have been measured: check the view with their real size.
        if (!pending.results.every((id) => isMeasured(byId.get(id)))) return
        const { results, sources } = pending
        pending = null
        if (movedByPerson()) return
        followed = followedAt({ results, sources }, nodesOf(results))
        follow(nodesOf(results), nodesOf(sources), viewNow())
        return
      }

      // The person moved the view since the last follow: earlier results no longer pull it.
      if (movedByPerson()) trail = new Set()
      const viewport = viewNow()
      const size = { width, height }
      const freshIds = new Set(fresh.map((n) => n.id))
      const results: CanvasNode[] = []
      const sources = new Map<string, CanvasNode>()
      for (const n of fresh) {
        let connected = false
        for (const e of state.edges) {
          const other = e.target === n.id ? e.source : e.source === n.id ? e.target : null
          if (other === null || freshIds.has(other)) continue
          const node = byId.get(other)
          if (node === undefined) continue
          const onScreen = isOnScreen(viewport, size, boxOf(node))
          if (onScreen) sources.set(node.id, node)
          if (onScreen || trail.has(node.id)) connected = true
        }
        if (connected) results.push(n)
      }
      if (results.length === 0) return
      follow(results, [...sources.values()], viewport)
      for (const n of results) trail.add(n.id)
      const ids = { results: results.map((n) => n.id), sources: [...sources.keys()] }
      pending = results.every(isMeasured) ? null : ids
      followed = pending ? null : followedAt(ids, results)
    })
    // The person grabbed the canvas: a pan on its way stops there and never says it ended,
    // and the view is theirs from now on.
    const unsubscribeFlow = flow.subscribe((state, previous) => {
      if (state.paneDragging && !previous.paneDragging && left) left.ended = true
    })
    return () => {
      unsubscribe()
      unsubscribeFlow()
      clearTimeout(panLimit)
    }
  }, [store, flow, getViewport, setViewport, width, height])
}
