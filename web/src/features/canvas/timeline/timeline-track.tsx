import type { FilmCut, FilmPlan, TimelineSettings } from '@reelgraph/shared'
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { useStore } from 'zustand'
import { cn } from '@/lib/utils'
import { throttle } from '../lib/throttle'
import type { TimelineActions } from '../stores/canvas-store'
import { type Playback, seek } from './playback'
import {
  dropIndex,
  fitScale,
  framesToMs,
  layoutTrack,
  lengthText,
  minLengthMs,
  rulerTicks,
  type TrackBox,
  timeText,
  trimEdit,
} from './track-layout'
import { NarrationWave } from './narration-wave'
import type { TimelineNarration } from './use-timeline'

/** Edits during a drag reach the document at most this often (ms): 20 a second. */
export const DRAG_WRITE_INTERVAL_MS = 50

/** "Scene 2", or "Scene 2 (part 2)" for a split's later part. */
export function cutLabel(cut: FilmCut, film: readonly FilmCut[]): string {
  const same = film.filter((c) => c.sceneId === cut.sceneId)
  const part = same.findIndex((c) => c.id === cut.id)
  const base = `Scene ${cut.scene.sceneNumber}`
  return same.length > 1 && part > 0 ? `${base} (part ${part + 1})` : base
}

/** A transition's mark on its cut's box. */
const TRANSITION_MARKS: Record<string, string> = {
  crossfade: 'fade',
  dip: 'dip',
  wipe: 'wipe',
  slide: 'slide',
}

type Gesture =
  | { kind: 'move'; id: string; startX: number; startLeft: number; width: number; moved: boolean }
  | { kind: 'trim'; id: string; startX: number; edge: 'start' | 'end' }

/**
 * The timeline's track (issue 24 item 1): the time ruler and the playhead over one row of
 * the scenes' pictures, each as wide as its time on screen, the narration waveform under it
 * and the music lane. A cut drags to a new place (written to the document at most every
 * {@link DRAG_WRITE_INTERVAL_MS}, so the other members see it move while it is dragged);
 * its edges trim it (or set a still's length), never shorter than its narration, whose end
 * the edge shows; each edge is also a slider for the keyboard (←/→ 0.1 s, Shift 1 s).
 */
export function TimelineTrack({
  videoId,
  film,
  plan,
  settings,
  narrations,
  playback,
  selectedId,
  onSelect,
  canEdit,
  actions,
}: {
  videoId: string
  film: readonly FilmCut[]
  plan: FilmPlan
  settings: TimelineSettings
  narrations: ReadonlyMap<string, TimelineNarration>
  playback: Playback
  selectedId: string | null
  onSelect: (id: string) => void
  canEdit: boolean
  actions: TimelineActions
}) {
  const frameRef = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(1000)
  useLayoutEffect(() => {
    const el = frameRef.current
    if (!el) return
    const observer = new ResizeObserver(() => setWidth(el.clientWidth))
    observer.observe(el)
    setWidth(el.clientWidth)
    return () => observer.disconnect()
  }, [])
  const [gesture, setGesture] = useState<Gesture | null>(null)
  const [ghostLeft, setGhostLeft] = useState(0)
  // The scale stays as it was while a drag changes the film's length.
  const [frozenScale, setFrozenScale] = useState<number | null>(null)
  const pxPerMs = frozenScale ?? fitScale(plan.durationMs, width)
  const layout = useMemo(() => layoutTrack(plan, pxPerMs), [plan, pxPerMs])
  const cutBoxes = layout.boxes.filter((b) => b.piece.kind === 'cut')
  const timeMs = useStore(playback, (s) => s.timeMs)

  // Each call carries the film as this render has it: the newest call wins the interval.
  const mover = useMemo(
    () =>
      throttle(({ id, to, current }: { id: string; to: number; current: readonly FilmCut[] }) => {
        if (current.findIndex((c) => c.id === id) !== to) {
          actions.moveCut(videoId, current, id, to)
        }
      }, DRAG_WRITE_INTERVAL_MS),
    [actions, videoId],
  )
  const trimmer = useMemo(
    () =>
      throttle(
        ({ cut, edit }: { cut: FilmCut; edit: Parameters<TimelineActions['editCut']>[2] }) =>
          actions.editCut(videoId, cut, edit),
        DRAG_WRITE_INTERVAL_MS,
      ),
    [actions, videoId],
  )
  // What a trim started from: the cut's piece as it was then.
  const trimBase = useRef<{ box: TrackBox; minMs: number } | null>(null)

  const endGesture = () => {
    mover.flush()
    trimmer.flush()
    actions.endGesture()
    setFrozenScale(null)
    trimBase.current = null
    setGesture(null)
  }

  const startMove = (e: ReactPointerEvent, box: TrackBox) => {
    onSelect(box.piece.id)
    if (!canEdit || e.button !== 0) return
    e.currentTarget.setPointerCapture(e.pointerId)
    actions.beginGesture()
    setFrozenScale(pxPerMs)
    setGhostLeft(box.left)
    setGesture({
      kind: 'move',
      id: box.piece.id,
      startX: e.clientX,
      startLeft: box.left,
      width: box.width,
      moved: false,
    })
  }
  const onMove = (e: { clientX: number }) => {
    if (!gesture) return
    const dx = e.clientX - gesture.startX
    if (gesture.kind === 'move') {
      const left = gesture.startLeft + dx
      setGhostLeft(left)
      if (!gesture.moved && Math.abs(dx) > 3) setGesture({ ...gesture, moved: true })
      mover.call({
        id: gesture.id,
        to: dropIndex(cutBoxes, gesture.id, left + gesture.width / 2),
        current: film,
      })
    } else {
      const base = trimBase.current
      if (!base?.box.piece.cut) return
      const edit = trimEdit(
        {
          piece: base.box.piece,
          clipMs: base.box.piece.cut.scene.clip?.durationMs ?? null,
          minMs: base.minMs,
        },
        gesture.edge,
        dx / pxPerMs,
        plan.fps,
      )
      if (edit) trimmer.call({ cut: base.box.piece.cut, edit })
    }
  }
  const startTrim = (e: ReactPointerEvent, box: TrackBox, edge: 'start' | 'end') => {
    e.stopPropagation()
    onSelect(box.piece.id)
    if (!canEdit || e.button !== 0) return
    e.currentTarget.setPointerCapture(e.pointerId)
    actions.beginGesture()
    setFrozenScale(pxPerMs)
    trimBase.current = { box, minMs: minLengthMs(plan, plan.pieces.indexOf(box.piece)) }
    setGesture({ kind: 'trim', id: box.piece.id, startX: e.clientX, edge })
  }
  const trimByKey = (e: ReactKeyboardEvent, box: TrackBox, edge: 'start' | 'end') => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return
    e.preventDefault()
    e.stopPropagation()
    if (!canEdit || !box.piece.cut) return
    const step = (e.shiftKey ? 1000 : 100) * (e.key === 'ArrowLeft' ? -1 : 1)
    const edit = trimEdit(
      {
        piece: box.piece,
        clipMs: box.piece.cut.scene.clip?.durationMs ?? null,
        minMs: minLengthMs(plan, plan.pieces.indexOf(box.piece)),
      },
      edge,
      step,
      plan.fps,
    )
    if (edit) {
      actions.beginGesture()
      actions.editCut(videoId, box.piece.cut, edit)
      actions.endGesture()
    }
  }

  // While a drag lasts the whole window follows the pointer: a cut that changes place in the
  // list, or a pointer that leaves the track, never strands the drag.
  const follow = useRef({ onMove, endGesture })
  useEffect(() => {
    follow.current = { onMove, endGesture }
  })
  const gestureOn = gesture !== null
  useEffect(() => {
    if (!gestureOn) return
    const move = (e: PointerEvent) => follow.current.onMove(e)
    const end = () => follow.current.endGesture()
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', end)
    window.addEventListener('pointercancel', end)
    return () => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', end)
      window.removeEventListener('pointercancel', end)
      // The panel closed mid-drag: undo goes back to its usual steps.
      actions.endGesture()
    }
  }, [gestureOn, actions])

  const scrub = (e: ReactPointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect()
    playback.setState({ rate: 0 })
    seek(playback, (e.clientX - rect.left) / pxPerMs, plan.durationMs)
  }

  const ticks = rulerTicks(plan.durationMs, pxPerMs)
  const x = (ms: number) => ms * pxPerMs

  return (
    <div ref={frameRef} className="relative w-full select-none">
      <div className="relative" style={{ width: layout.widthPx }}>
        {/* The ruler: a click or drag puts the playhead there. */}
        <div
          className="relative h-5 cursor-pointer border-b text-[10px] text-muted-foreground"
          aria-hidden
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture(e.pointerId)
            scrub(e)
          }}
          onPointerMove={(e) => {
            if (e.buttons === 1) scrub(e)
          }}
        >
          {ticks.map((t) => (
            <span key={t} className="absolute top-0 border-l pl-0.5" style={{ left: x(t) }}>
              {timeText(t)}
            </span>
          ))}
        </div>

        {/* The pictures: one box per piece, cards included. */}
        <div className="relative h-16">
          {layout.boxes
            .filter((b) => b.piece.kind !== 'cut')
            .map((b) => (
              <div
                key={b.piece.id}
                className="absolute top-1 bottom-1 flex items-center justify-center overflow-hidden rounded border text-[10px]"
                style={{
                  left: b.left,
                  width: b.width,
                  background:
                    b.piece.kind === 'title' ? settings.titleBackground : settings.endBackground,
                  color: b.piece.kind === 'title' ? settings.titleColor : settings.endColor,
                }}
              >
                {b.piece.kind === 'title' ? 'Title card' : 'End card'}
              </div>
            ))}
          <ul aria-label="Cuts" className="absolute inset-0">
            {cutBoxes.map((b) => {
              const cut = b.piece.cut!
              const label = cutLabel(cut, film)
              const dragging = gesture?.kind === 'move' && gesture.id === b.piece.id
              const left = dragging ? ghostLeft : b.left
              const minMs = minLengthMs(plan, plan.pieces.indexOf(b.piece))
              const transitionMs = framesToMs(b.piece.transitionIn.frames, plan.fps)
              const selected = selectedId === b.piece.id
              return (
                <li
                  key={b.piece.id}
                  data-cut-id={b.piece.id}
                  className={cn(
                    'absolute top-1 bottom-1 overflow-hidden rounded border bg-muted',
                    selected && 'ring-2 ring-primary',
                    dragging && 'z-10 opacity-80 shadow-lg',
                  )}
                  style={{ left, width: Math.max(8, b.width) }}
                >
                  {cut.scene.clip ? (
                    <video
                      src={`${cut.scene.clip.url}#t=${(b.piece.clip?.inMs ?? 0) / 1000}`}
                      muted
                      preload="metadata"
                      className="pointer-events-none absolute inset-0 h-full w-full object-cover"
                    />
                  ) : cut.scene.imageUrl ? (
                    <div
                      className="pointer-events-none absolute inset-0 bg-center bg-cover bg-repeat-x"
                      style={{
                        backgroundImage: `url(${cut.scene.imageUrl})`,
                        backgroundSize: 'auto 100%',
                      }}
                    />
                  ) : null}
                  {/* Where the narration ends: the cut cannot be shorter. */}
                  {cut.narrated && b.piece.narrationMs > 0 ? (
                    <div
                      className="pointer-events-none absolute top-0 bottom-0 border-amber-400 border-r-2 border-dashed"
                      style={{
                        left: Math.max(0, Math.min(b.width - 2, x(b.startMs + minMs) - b.left)),
                      }}
                      title="The narration: the cut is never shorter"
                    />
                  ) : null}
                  <button
                    type="button"
                    className="absolute inset-0 cursor-grab touch-none flex flex-col justify-end bg-gradient-to-t from-black/70 to-transparent px-2 pb-0.5 text-left leading-tight text-white text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
                    aria-pressed={selected}
                    onPointerDown={(e) => startMove(e, b)}
                    onClick={() => onSelect(b.piece.id)}
                  >
                    {/* Its name is what it shows: "Scene 2 4.9 s". */}
                    <span className="block truncate font-medium">{label}</span>
                    <span className="block truncate">{lengthText(b.lengthMs)}</span>
                  </button>
                  {transitionMs > 0 ? (
                    <span
                      className="pointer-events-none absolute top-0.5 left-3 rounded bg-black/60 px-1 text-[10px] text-white"
                      title={`${b.piece.transitionIn.type} ${lengthText(transitionMs)}`}
                    >
                      {TRANSITION_MARKS[b.piece.transitionIn.type] ?? ''}
                    </span>
                  ) : null}
                  {(['start', 'end'] as const).map((edge) => (
                    <div
                      key={edge}
                      role="slider"
                      tabIndex={canEdit ? 0 : -1}
                      aria-label={`Trim ${edge} of ${label}`}
                      aria-valuemin={Math.round(minMs)}
                      aria-valuemax={600_000}
                      aria-valuenow={Math.round(b.lengthMs)}
                      aria-valuetext={lengthText(b.lengthMs)}
                      aria-disabled={!canEdit}
                      className={cn(
                        'absolute top-0 bottom-0 w-2 cursor-ew-resize touch-none bg-white/40 outline-none hover:bg-white/80 focus-visible:bg-primary',
                        edge === 'start' ? 'left-0' : 'right-0',
                      )}
                      onPointerDown={(e) => startTrim(e, b, edge)}
                      onKeyDown={(e) => trimByKey(e, b, edge)}
                    />
                  ))}
                </li>
              )
            })}
          </ul>
        </div>

        {/* The narration waveform. */}
        <div className="relative h-8 border-t" aria-label="Narration" role="group">
          {plan.pieces.map((p) => {
            if (p.narrationFrame === null || !p.cut) return null
            const n = narrations.get(p.cut.sceneId)
            if (!n) return null
            const from = framesToMs(p.startFrame + p.narrationFrame, plan.fps)
            return (
              <NarrationWave
                key={p.id}
                narration={n}
                left={x(from)}
                width={x(n.durationMs)}
                label={`Narration of ${cutLabel(p.cut, film)}${n.estimated ? ' (estimated)' : ''}`}
              />
            )
          })}
        </div>

        {/* The music lane. */}
        <div className="relative h-6 border-t text-[10px]">
          {settings.music ? (
            <>
              <div
                aria-hidden
                className="absolute inset-y-1 rounded bg-emerald-200 dark:bg-emerald-900"
                style={{
                  left: 0,
                  width: layout.widthPx,
                  // The fades, drawn as the music's level.
                  maskImage: `linear-gradient(to right, rgb(0 0 0 / 0.2), black ${x(settings.musicFadeInMs)}px, black calc(100% - ${x(settings.musicFadeOutMs)}px), rgb(0 0 0 / 0.2))`,
                }}
              />
              <span
                className="absolute inset-y-1 flex items-center px-2 text-emerald-950 dark:text-emerald-50"
                style={{ left: x(settings.musicFadeInMs) }}
              >
                Music · {Math.round(settings.musicVolume * 100)} % · ducks {settings.musicDuckDb} dB
              </span>
            </>
          ) : (
            <span className="absolute inset-y-1 left-1 flex items-center text-muted-foreground">
              No music
            </span>
          )}
        </div>

        {/* The playhead. */}
        <div
          className="pointer-events-none absolute top-0 bottom-0 w-0.5 bg-red-500"
          style={{ left: x(timeMs) }}
          aria-hidden
        />
      </div>
    </div>
  )
}
