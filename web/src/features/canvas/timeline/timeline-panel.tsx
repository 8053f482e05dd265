import { PauseIcon, PlayIcon, Redo2Icon, SkipBackIcon, Undo2Icon } from 'lucide-react'
import { type KeyboardEvent, useMemo, useState } from 'react'
import { useStore } from 'zustand'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { useCanEdit } from '../hooks/use-can-edit'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useCanvasStore } from '../hooks/use-canvas-store'
import { useProjectId } from '../hooks/use-generation'
import { useNodeData } from '../hooks/use-node-data'
import { useVideoInputs } from '../hooks/use-video-inputs'
import { useVideoRender } from '../hooks/use-video-render'
import { GenerateButton } from '../nodes/generate-button'
import { ExportButtons } from './export-buttons'
import { createPlayback, seek, usePlaybackClock } from './playback'
import { nextShuttleRate, timelineKeyAction } from './timeline-keys'
import { TimelineInspector } from './timeline-inspector'
import { TimelinePreview } from './timeline-preview'
import { TimelineTrack } from './timeline-track'
import { framesToMs, timeText } from './track-layout'
import { useTimeline } from './use-timeline'

/** True when a key press is typing (a text or number field, a select): the panel leaves it. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')
    return true
  if (target.tagName !== 'INPUT') return false
  return !['checkbox', 'radio', 'button', 'color', 'file'].includes(
    (target as HTMLInputElement).type,
  )
}

/** The playhead's time and the film's length, updated as the clock ticks. */
function PlayheadTime({
  playback,
  durationMs,
}: {
  playback: ReturnType<typeof createPlayback>
  durationMs: number
}) {
  const timeMs = useStore(playback, (s) => s.timeMs)
  return (
    <output aria-label="Playhead time" className="font-mono text-xs tabular-nums">
      {timeText(timeMs, true)} / {timeText(durationMs, true)}
    </output>
  )
}

/**
 * The Video node's timeline (issue 24 item 1), a wide dialog that fits 1280×720: the
 * preview (played in the page from the scenes' own media), the settings of the selected cut,
 * the music, the cards and the captions beside it, and the track under them. Bound to the
 * project's document: every edit is a transaction with the local origin (the canvas's
 * per-user undo takes it back) and every member's edits show as they arrive. Keyboard: see
 * `timeline-keys.ts`; the dialog carries `nokey`, so the canvas's own keys (Delete of the
 * selected node) stay out of it.
 */
export function TimelinePanel({
  videoId,
  open,
  onOpenChange,
}: {
  videoId: string
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const data = useNodeData(videoId, 'video')
  const inputs = useVideoInputs(videoId)
  const canEdit = useCanEdit()
  const actions = useCanvasActions()
  const canUndo = useCanvasStore((s) => s.canUndo)
  const canRedo = useCanvasStore((s) => s.canRedo)
  const playback = useMemo(() => createPlayback(), [])
  const rate = useStore(playback, (s) => s.rate)
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const takes = data?.videoTakes ?? []
  const view = useTimeline(videoId, inputs, takes[0]?.mp4Url ?? '')
  const render = useVideoRender(videoId, inputs, takes[0]?.mp4Url ?? '')
  const projectId = useProjectId()
  const { film, plan } = view
  const durationMs = plan?.durationMs ?? 0
  usePlaybackClock(playback, durationMs)
  const cuts = film.cuts
  const selected = cuts.find((c) => c.id === selectedId) ?? null

  const togglePlay = () => {
    const { rate: current, timeMs } = playback.getState()
    if (current === 1) playback.setState({ rate: 0 })
    else playback.setState({ rate: 1, timeMs: timeMs >= durationMs - 1 ? 0 : timeMs })
  }
  const split = () => {
    if (!selected || !plan) return
    const piece = plan.pieces.find((p) => p.id === selected.id)
    if (!piece) return
    const atMs = playback.getState().timeMs - framesToMs(piece.startFrame, plan.fps)
    const lengthMs = framesToMs(piece.frames, plan.fps)
    if (!(atMs > 0 && atMs < lengthMs)) return
    actions.timeline.splitCut(videoId, {
      film: cuts,
      cut: selected,
      atMs,
      lengthMs,
      clipMs: selected.scene.clip?.durationMs ?? null,
      newId: `split-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    })
  }
  const removeSelected = () => {
    if (!selected) return
    const index = cuts.indexOf(selected)
    actions.timeline.editCut(videoId, selected, { removed: true })
    setSelectedId(cuts[index + 1]?.id ?? cuts[index - 1]?.id ?? null)
  }

  const onKeyDown = (e: KeyboardEvent) => {
    if (isTyping(e.target)) return
    const action = timelineKeyAction(e)
    if (!action) return
    e.preventDefault()
    e.stopPropagation()
    switch (action.type) {
      case 'toggle-play':
        return togglePlay()
      case 'step':
        playback.setState({ rate: 0 })
        return seek(playback, playback.getState().timeMs + action.ms, durationMs)
      case 'shuttle':
        return playback.setState({ rate: nextShuttleRate(playback.getState().rate, action.key) })
      case 'move-cut': {
        if (!selected || !canEdit) return
        const index = cuts.indexOf(selected)
        const to = index + action.by
        if (to < 0 || to >= cuts.length) return
        actions.timeline.beginGesture()
        actions.timeline.moveCut(videoId, cuts, selected.id, to)
        return actions.timeline.endGesture()
      }
      case 'remove-cut':
        if (canEdit) removeSelected()
        return
      case 'undo':
        return actions.undo()
      case 'redo':
        return actions.redo()
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="nokey flex h-[calc(100dvh-1rem)] max-h-none w-[calc(100vw-1rem)] max-w-none flex-col gap-2 p-3 sm:max-w-none"
        onKeyDown={onKeyDown}
        // Space activates a focused button on key up: the panel's Space already played.
        onKeyUp={(e) => {
          if (e.key === ' ' && !isTyping(e.target)) e.preventDefault()
        }}
      >
        <DialogHeader className="flex-row items-center gap-3 pr-8 text-left">
          <DialogTitle className="text-base">Timeline · {data?.label ?? 'Video'}</DialogTitle>
          <DialogDescription className="sr-only">
            The film's cuts in order over the narration and the music. Space plays, arrows step, J K
            L shuttle, Alt and an arrow move the selected cut, Delete removes it from the film.
          </DialogDescription>
          <div className="ml-auto flex items-center gap-1">
            {projectId !== null ? (
              <ExportButtons projectId={projectId} nodeId={videoId} rendered={takes.length > 0} />
            ) : null}
            <Button
              type="button"
              size="icon"
              variant="ghost"
              aria-label="Undo"
              disabled={!canUndo || !canEdit}
              onClick={actions.undo}
            >
              <Undo2Icon aria-hidden />
            </Button>
            <Button
              type="button"
              size="icon"
              variant="ghost"
              aria-label="Redo"
              disabled={!canRedo || !canEdit}
              onClick={actions.redo}
            >
              <Redo2Icon aria-hidden />
            </Button>
          </div>
        </DialogHeader>

        {!plan ? (
          <p className="text-muted-foreground text-sm">
            Connect scenes to the Video node to lay out its film.
          </p>
        ) : (
          <>
            <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)_minmax(320px,420px)] gap-3">
              <div className="flex min-h-0 flex-col gap-2">
                <div className="min-h-0 flex-1">
                  <TimelinePreview
                    plan={plan}
                    settings={film.settings}
                    narrations={view.narrations}
                    preset={inputs?.settings.preset ?? '16:9'}
                    playback={playback}
                  />
                </div>
                <div className="flex items-center gap-2">
                  <Button
                    type="button"
                    size="icon"
                    variant="outline"
                    aria-label="Back to start"
                    onClick={() => seek(playback, 0, durationMs)}
                  >
                    <SkipBackIcon aria-hidden />
                  </Button>
                  <Button type="button" size="sm" variant="outline" onClick={togglePlay}>
                    {rate === 1 ? <PauseIcon aria-hidden /> : <PlayIcon aria-hidden />}
                    {rate === 1 ? 'Pause' : 'Play'}
                  </Button>
                  <PlayheadTime playback={playback} durationMs={durationMs} />
                  {rate !== 0 && rate !== 1 ? (
                    <span className="text-muted-foreground text-xs">{rate}×</span>
                  ) : null}
                </div>
              </div>
              <div className="flex min-h-0 flex-col gap-2">
                <div className="min-h-0 flex-1">
                  <TimelineInspector
                    videoId={videoId}
                    film={cuts}
                    removed={film.removed}
                    plan={plan}
                    settings={film.settings}
                    selected={selected}
                    canEdit={canEdit}
                    actions={actions.timeline}
                    onSplit={split}
                    onRemove={removeSelected}
                  />
                </div>
                <div className="border-t pt-2">
                  <GenerateButton
                    label="Render"
                    busyLabel="Rendering..."
                    action="video"
                    info={{ cost: render.cost, offline: false, providerName: undefined }}
                    issue={render.issue}
                    busy={render.busy}
                    error={null}
                    job={render.job}
                    onGenerate={render.onRender}
                  />
                  {takes[0] ? (
                    <p className="mt-1 text-muted-foreground text-xs" aria-live="polite">
                      Latest take: {takes.length} {takes.length === 1 ? 'take' : 'takes'},{' '}
                      <a
                        className="underline"
                        href={takes[0].mp4Url}
                        target="_blank"
                        rel="noreferrer"
                      >
                        {timeText(takes[0].durationMs)} MP4
                      </a>
                    </p>
                  ) : null}
                </div>
              </div>
            </div>
            <div className="shrink-0 overflow-x-auto border-t pt-1">
              <TimelineTrack
                videoId={videoId}
                film={cuts}
                plan={plan}
                settings={film.settings}
                narrations={view.narrations}
                playback={playback}
                selectedId={selectedId}
                onSelect={setSelectedId}
                canEdit={canEdit}
                actions={actions.timeline}
              />
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
