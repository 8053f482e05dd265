import {
  type ClipFit,
  type ClipShorter,
  type ClipSound,
  VIDEO_PRESET_NAMES,
  type VideoScene,
  type VideoTake,
} from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { DownloadIcon, FilmIcon, TimelineIcon } from 'lucide-react'
import { lazy, memo, Suspense, useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useVoices } from '../api/ai-api'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useNodeData } from '../hooks/use-node-data'
import { useFilmHash } from '../hooks/use-film-hash'
import { useVideoInputs } from '../hooks/use-video-inputs'
import { useVideoRender } from '../hooks/use-video-render'
import { clipLengthText } from '../lib/clip-generation'
import { downloadUrl } from '../lib/generation'
import type { VideoNode as VideoFlowNode } from '../lib/node-types'
import { GenerateButton } from './generate-button'
import { CheckField, SelectField } from './node-fields'
import { NodeShell } from './node-shell'

const TimelinePanel = lazy(() =>
  import('../timeline/timeline-panel').then((m) => ({ default: m.TimelinePanel })),
)

/** "0:45" for 45,000 ms. */
function clock(ms: number): string {
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/**
 * "Take 2 · 0:45 · 16:9 · 14:05" for a take's button; without the time when it is unknown
 * (a render from before takes).
 */
function takeLabel(take: VideoTake, index: number, count: number): string {
  const at = new Date(take.renderedAt)
  const parts = [`Take ${count - index}`, clock(take.durationMs), take.preset]
  if (!Number.isNaN(at.getTime())) {
    parts.push(at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }))
  }
  return parts.join(' · ')
}

/** "2 of 3 voices reused" for a take that counted them (issue 21 item 4). */
function voicesReusedText(take: VideoTake): string | null {
  if (take.voicesTotal === undefined || take.voicesReused === undefined) return null
  return `${take.voicesReused} of ${take.voicesTotal} ${take.voicesTotal === 1 ? 'voice' : 'voices'} reused`
}

/**
 * The clip settings' options, short enough for three columns (issue 22 item 4): a shorter
 * clip holds its last frame, or is slowed down; its own sound is off, or mixed under the
 * narration.
 */
const CLIP_FIT_OPTIONS: { value: ClipFit; label: string }[] = [
  { value: 'cover', label: 'Cover' },
  { value: 'contain', label: 'Contain' },
]
const CLIP_SHORTER_OPTIONS: { value: ClipShorter; label: string }[] = [
  { value: 'hold', label: 'Hold' },
  { value: 'slow', label: 'Slow down' },
]
const CLIP_SOUND_OPTIONS: { value: ClipSound; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'mix', label: 'Under narration' },
]

/** "clip 0:05", "image" or "no picture": what a scene renders with (issue 22 item 4). */
function scenePicture(scene: VideoScene): string {
  if (scene.clip) return `clip ${clipLengthText(scene.clip.durationMs)}`
  return scene.imageUrl ? 'image' : 'no picture'
}

/**
 * Video (issue 13 item 5): takes the scenes connected to it, or a connected text node's
 * scenes, in `sceneNumber` order, each with its narration and image (scene -> image
 * generator -> image) or clip (scene -> video generator -> clip, issue 22 item 4: the list
 * says which scenes render a clip, and the clip settings show once one does). Lists the
 * scenes with neither; settings (preset, voice, subtitles, music); "Render video · N credits" (COST_VIDEO + COST_VOICE per narration not spoken
 * before, the server's quote: issue 21 item 4) starts a render job
 * whose stage and progress show while it runs (with Cancel); afterwards a player, the MP4,
 * SRT and VTT downloads, and a Stale badge when an input changed since that render. The last
 * five renders are kept as takes: each can be selected (for this viewer) and played.
 */
export const VideoNode = memo(function VideoNode({ id, selected }: NodeProps<VideoFlowNode>) {
  const data = useNodeData(id, 'video')
  const inputs = useVideoInputs(id)
  const film = useFilmHash(id, inputs?.hash ?? null)
  const voices = useVoices()
  const { updateNodeData } = useCanvasActions()
  const [selectedUrl, setSelectedUrl] = useState<string | null>(null)
  const [timelineOpen, setTimelineOpen] = useState(false)
  const takes = data?.videoTakes ?? []
  const scenes = inputs?.scenes ?? []
  const missing = inputs?.missing ?? []
  const { job, issue, cost, busy, onRender } = useVideoRender(id, inputs, takes[0]?.mp4Url ?? '')
  if (!data) return null
  // The selected take (this viewer's choice), else the newest. A node rendered before takes
  // existed reads as one take (shared's Video node migration).
  const current: VideoTake | null = takes.find((t) => t.mp4Url === selectedUrl) ?? takes[0] ?? null
  const stale =
    current !== null && current.inputHash !== '' && film !== null && film !== current.inputHash
  const voiceOptions = [
    {
      value: '',
      label: voices.data
        ? `Default (${voices.data.voices.find((v) => v.id === voices.data.defaultVoice)?.name ?? voices.data.defaultVoice})`
        : 'Default',
    },
    ...(voices.data?.voices ?? []).map((v) => ({ value: v.id, label: v.name })),
  ]

  return (
    <NodeShell
      label={data.label}
      icon={FilmIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      wide
      summary={`${scenes.length} ${scenes.length === 1 ? 'scene' : 'scenes'}`}
      accent="bg-violet-50 text-violet-900 dark:bg-violet-950 dark:text-violet-100"
    >
      <p className="text-muted-foreground text-xs">
        {scenes.length === 0
          ? 'No scenes yet.'
          : `${scenes.length} ${scenes.length === 1 ? 'scene' : 'scenes'}, in scene order.`}
      </p>
      {scenes.some((s) => s.clip !== null) ? (
        <ul aria-label="What each scene renders" className="flex flex-wrap gap-1 text-xs">
          {scenes.map((s) => (
            <li
              key={s.nodeId}
              className={
                s.clip
                  ? 'rounded bg-pink-50 px-1.5 py-0.5 text-pink-900 dark:bg-pink-950 dark:text-pink-100'
                  : 'rounded bg-muted px-1.5 py-0.5 text-muted-foreground'
              }
            >
              Scene {s.sceneNumber}: {scenePicture(s)}
            </li>
          ))}
        </ul>
      ) : null}
      {missing.length > 0 ? (
        <div className="grid gap-1 text-xs" role="group" aria-label="Scenes without an image">
          <p className="font-medium text-destructive">Scenes without an image:</p>
          <ul className="list-disc pl-4 text-muted-foreground">
            {missing.map((s) => (
              <li key={s.nodeId}>
                Scene {s.sceneNumber}: needs an image (scene → image generator → image)
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="grid grid-cols-2 gap-2">
        <SelectField
          label="Preset"
          value={data.preset}
          options={VIDEO_PRESET_NAMES}
          onChange={(preset) => updateNodeData(id, { preset })}
        />
        <SelectField
          label="Voice"
          value={data.voice}
          options={voiceOptions}
          hint={voices.data?.provider.name}
          onChange={(voice) => updateNodeData(id, { voice })}
        />
      </div>
      <div className="flex items-center gap-4">
        <CheckField
          label="Subtitles"
          checked={data.subtitles}
          onChange={(subtitles) => updateNodeData(id, { subtitles })}
        />
        <CheckField
          label="Music"
          checked={data.music}
          onChange={(music) => updateNodeData(id, { music })}
        />
        {/* Beside the checkboxes, a link-styled button: the node keeps its height (issue 20's
            follow-the-results view fits the made video's node at 1280x720). */}
        <Button
          type="button"
          size="sm"
          variant="link"
          className="nodrag ml-auto text-xs"
          disabled={scenes.length === 0}
          onClick={() => setTimelineOpen(true)}
        >
          <TimelineIcon aria-hidden />
          Timeline
        </Button>
      </div>
      {scenes.some((s) => s.clip !== null) ? (
        <div className="grid grid-cols-3 gap-2">
          <SelectField
            label="Clip fit"
            value={data.clipFit}
            options={CLIP_FIT_OPTIONS}
            onChange={(v) => updateNodeData(id, { clipFit: v })}
          />
          <SelectField
            label="Shorter clips"
            value={data.clipShorter}
            options={CLIP_SHORTER_OPTIONS}
            onChange={(v) => updateNodeData(id, { clipShorter: v })}
          />
          <SelectField
            label="Clip sound"
            value={data.clipSound}
            options={CLIP_SOUND_OPTIONS}
            onChange={(v) => updateNodeData(id, { clipSound: v })}
          />
        </div>
      ) : null}
      {timelineOpen ? (
        <Suspense fallback={null}>
          <TimelinePanel videoId={id} open onOpenChange={setTimelineOpen} />
        </Suspense>
      ) : null}
      <GenerateButton
        label="Render video"
        busyLabel="Rendering..."
        action="video"
        info={{ cost, offline: false, providerName: undefined }}
        issue={issue}
        busy={busy}
        error={null}
        job={job}
        onGenerate={onRender}
      />
      {current ? (
        <div className="grid gap-2">
          {stale ? (
            <Badge variant="secondary" className="w-fit">
              Stale: an input changed since this render
            </Badge>
          ) : null}
          <video
            key={current.mp4Url}
            controls
            preload="metadata"
            src={current.mp4Url}
            // The take's frame shape from the first paint: the node does not grow again
            // when the video's metadata arrives.
            style={{ aspectRatio: current.preset.replace(':', ' / ') }}
            className="nodrag nowheel w-full rounded-md border bg-black"
          >
            {current.vttUrl ? (
              <track kind="subtitles" src={current.vttUrl} label="Subtitles" />
            ) : null}
          </video>
          {voicesReusedText(current) ? (
            <p className="text-muted-foreground text-xs">{voicesReusedText(current)}</p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {(
              [
                ['MP4', current.mp4Url],
                ['SRT', current.srtUrl],
                ['VTT', current.vttUrl],
              ] as const
            ).map(([name, url]) =>
              url ? (
                <Button key={name} asChild size="sm" variant="outline" className="nodrag">
                  <a href={downloadUrl(url)} download>
                    <DownloadIcon aria-hidden />
                    {name}
                  </a>
                </Button>
              ) : null,
            )}
          </div>
          {takes.length > 1 ? (
            <div role="group" aria-label="Takes" className="grid gap-1">
              <p className="font-medium text-xs">Takes</p>
              {takes.map((take, i) => {
                const chosen = take.mp4Url === current.mp4Url
                return (
                  <Button
                    key={take.mp4Url}
                    type="button"
                    size="sm"
                    variant={chosen ? 'secondary' : 'ghost'}
                    className="nodrag justify-start font-normal text-xs"
                    aria-pressed={chosen}
                    onClick={() => setSelectedUrl(take.mp4Url)}
                  >
                    {takeLabel(take, i, takes.length)}
                  </Button>
                )
              })}
            </div>
          ) : null}
        </div>
      ) : null}
    </NodeShell>
  )
})
