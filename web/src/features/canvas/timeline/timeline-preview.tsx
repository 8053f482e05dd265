import {
  type CaptionEvent,
  type FilmPlan,
  type PlannedCut,
  type TimelineSettings,
  type VideoPresetName,
  type WordTiming,
} from '@reelgraph/shared'
import { useEffect, useMemo, useRef } from 'react'
import { useStore } from 'zustand'
import { cn } from '@/lib/utils'
import type { Playback } from './playback'
import { captionAt, type PreviewLayer, previewFrame } from './preview-frame'
import type { TimelineNarration } from './use-timeline'

/** The frame's width over its height for each preset. */
const ASPECT: Record<VideoPresetName, string> = {
  '16:9': '16 / 9',
  '9:16': '9 / 16',
  '1:1': '1 / 1',
}

/** How far a playing element may drift from the plan before it is put back, in s. */
const DRIFT_S = 0.25

/**
 * Keeps a media element where the plan says: playing along at normal speed (put back when
 * it drifts), else paused on the exact moment (scrubbing, J/K/L, a step).
 */
function syncMedia(el: HTMLMediaElement, atS: number | null, playing: boolean): void {
  if (atS === null) {
    if (!el.paused) el.pause()
    return
  }
  if (playing) {
    if (Math.abs(el.currentTime - atS) > DRIFT_S) el.currentTime = atS
    if (el.paused) void el.play().catch(() => {})
  } else {
    if (!el.paused) el.pause()
    if (Math.abs(el.currentTime - atS) > 0.02) el.currentTime = atS
  }
}

function layerStyle(layer: PreviewLayer | undefined): React.CSSProperties {
  if (!layer) return { visibility: 'hidden' }
  return {
    opacity: layer.opacity,
    transform: layer.shiftX ? `translateX(${layer.shiftX * 100}%)` : undefined,
    clipPath: layer.reveal < 1 ? `inset(0 ${(1 - layer.reveal) * 100}% 0 0)` : undefined,
  }
}

/** A card (title or end) as it shows. */
function Card({ text, color, background }: { text: string; color: string; background: string }) {
  return (
    <div
      className="flex h-full w-full items-center justify-center p-[6%] text-center font-semibold text-[clamp(14px,5cqh,48px)]"
      style={{ color, background }}
    >
      {text}
    </div>
  )
}

/**
 * The in-page preview (issue 24 item 1): the timeline played from the scenes' own media,
 * timed by shared `planFilm` as the renderer is: stills as images, clips as videos from
 * their in points, each narration's audio at its place, uploaded music at its volume with
 * its fades and ducking (a builtin track plays in the render only), transitions approximated
 * (`previewFrame`), and the captions in the timeline's style (issue 24 item 2).
 */
export function TimelinePreview({
  plan,
  settings,
  narrations,
  preset,
  playback,
}: {
  plan: FilmPlan
  settings: TimelineSettings
  narrations: ReadonlyMap<string, TimelineNarration>
  preset: VideoPresetName
  playback: Playback
}) {
  const timeMs = useStore(playback, (s) => s.timeMs)
  const rate = useStore(playback, (s) => s.rate)
  const frame = previewFrame(plan, timeMs)
  const playing = rate === 1
  const videos = useRef(new Map<string, HTMLVideoElement>())
  const voices = useRef(new Map<string, HTMLAudioElement>())
  const music = useRef<HTMLAudioElement | null>(null)
  const captionCache = useMemo(() => new Map<readonly WordTiming[], CaptionEvent[]>(), [])
  const layers = new Map(frame.layers.map((l) => [l.piece.id, l]))

  useEffect(() => {
    for (const [id, el] of videos.current) {
      const layer = layers.get(id)
      syncMedia(el, layer?.clipMs != null ? layer.clipMs / 1000 : null, playing)
    }
    for (const [id, el] of voices.current) {
      const heard = frame.narration?.piece.id === id ? frame.narration.atMs / 1000 : null
      syncMedia(el, heard, playing)
    }
    const m = music.current
    if (m) {
      const fadeIn = settings.musicFadeInMs > 0 ? Math.min(1, timeMs / settings.musicFadeInMs) : 1
      const left = plan.durationMs - timeMs
      const fadeOut = settings.musicFadeOutMs > 0 ? Math.min(1, left / settings.musicFadeOutMs) : 1
      const duck = frame.narration ? 10 ** (-settings.musicDuckDb / 20) : 1
      m.volume = Math.max(0, Math.min(1, settings.musicVolume * fadeIn * fadeOut * duck))
      const at =
        Number.isFinite(m.duration) && m.duration > 0 ? (timeMs / 1000) % m.duration : timeMs / 1000
      syncMedia(m, at, playing)
    }
  })

  const narrated = frame.narration
  const words = narrated ? narrations.get(narrated.piece.cut?.sceneId ?? '') : undefined
  const caption =
    narrated && words
      ? captionAt(words.words, words.durationMs, settings, narrated.atMs, captionCache)
      : null
  const bold = settings.captionStyle === 'bold'

  const piece = (p: PlannedCut) => {
    const layer = layers.get(p.id)
    if (p.kind === 'title' || p.kind === 'end') {
      const title = p.kind === 'title'
      return (
        <div key={p.id} className="absolute inset-0" style={layerStyle(layer)}>
          <Card
            text={title ? settings.titleText : settings.endText}
            color={title ? settings.titleColor : settings.endColor}
            background={title ? settings.titleBackground : settings.endBackground}
          />
        </div>
      )
    }
    const scene = p.cut!.scene
    return (
      <div key={p.id} className="absolute inset-0" style={layerStyle(layer)}>
        {scene.clip ? (
          <video
            ref={(el) => {
              if (el) videos.current.set(p.id, el)
              else videos.current.delete(p.id)
            }}
            src={scene.clip.url}
            muted
            playsInline
            preload="auto"
            className="h-full w-full object-cover"
          />
        ) : scene.imageUrl ? (
          <img src={scene.imageUrl} alt="" className="h-full w-full object-cover" />
        ) : null}
      </div>
    )
  }

  return (
    <div
      role="img"
      aria-label={`Preview at ${Math.floor(timeMs / 1000)} s`}
      className="relative mx-auto h-full max-w-full overflow-hidden rounded-md bg-black"
      style={{ aspectRatio: ASPECT[preset], containerType: 'size' }}
    >
      {/* Drawn in film order, so the piece coming in is on top. */}
      {plan.pieces.map(piece)}
      <div
        className="pointer-events-none absolute inset-0 bg-black"
        style={{ opacity: frame.black }}
      />
      {caption ? (
        <div
          className={cn(
            'pointer-events-none absolute inset-x-[5%] flex flex-col items-center text-center leading-tight',
            settings.captionPosition === 'top' && 'top-[6%]',
            settings.captionPosition === 'middle' && 'top-1/2 -translate-y-1/2',
            settings.captionPosition === 'bottom' && 'bottom-[6%]',
            bold && 'top-1/2 bottom-auto -translate-y-1/2 font-black uppercase',
          )}
          style={{
            fontFamily: `${settings.captionFont}, ui-sans-serif, system-ui, sans-serif`,
            // captionSize is px at a 1080 px frame height; bold is drawn larger.
            fontSize: `${((settings.captionSize * (bold ? 1.6 : 1)) / 1080) * 100}cqh`,
            color: settings.captionColor,
            textShadow: '0 0 4px #000, 0 0 2px #000',
          }}
        >
          {caption.lines.map((line, i) => {
            const before = caption.lines.slice(0, i).reduce((n, l) => n + l.length, 0)
            return (
              <p key={i}>
                {line.map((word, j) =>
                  before + j === caption.spoken ? (
                    // The spoken word (Word highlight): <mark>, in the highlight colour.
                    <mark
                      key={j}
                      className="bg-transparent"
                      style={{ color: settings.captionHighlight }}
                    >
                      {j > 0 ? ' ' : ''}
                      {word}
                    </mark>
                  ) : (
                    <span key={j}>
                      {j > 0 ? ' ' : ''}
                      {word}
                    </span>
                  ),
                )}
              </p>
            )
          })}
        </div>
      ) : null}
      {[...narrations].map(([sceneId, n]) => {
        const owner = plan.pieces.find(
          (p) => p.cut?.sceneId === sceneId && p.narrationFrame !== null,
        )
        if (!owner || !n.wavUrl) return null
        return (
          <audio
            key={owner.id}
            ref={(el) => {
              if (el) voices.current.set(owner.id, el)
              else voices.current.delete(owner.id)
            }}
            src={n.wavUrl}
            preload="auto"
          />
        )
      })}
      {settings.music.startsWith('/api/assets/') ? (
        <audio ref={music} src={settings.music} preload="auto" />
      ) : null}
    </div>
  )
}
