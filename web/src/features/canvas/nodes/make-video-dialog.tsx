import {
  affordableSceneCount,
  type CatalogModel,
  formatTargetLength,
  type GenerationCosts,
  makeVideoClipSeconds,
  makeVideoCost,
  makeVideoCostParts,
  SCENE_COUNT_DEFAULT,
  SCENE_COUNT_MAX,
  SCENE_COUNT_MIN,
  targetLengthProblem,
  VIDEO_PRESET_NAMES,
  type VideoPresetName,
} from '@reelgraph/shared'
import { FilmIcon } from 'lucide-react'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import {
  defaultVideoModel,
  groupModelsByProvider,
  modelOptionLabel,
  secondsText,
} from '../lib/clip-generation'
import { LengthField } from './length-field'

/** A format's words in the dialog. */
const PRESET_LABELS: Record<VideoPresetName, string> = {
  '16:9': '16:9 landscape (1920×1080)',
  '9:16': '9:16 vertical (1080×1920)',
  '1:1': '1:1 square (1080×1080)',
}

/** "1 credit" / "N credits". */
function credits(n: number): string {
  return `${n} ${n === 1 ? 'credit' : 'credits'}`
}

/** What "Make video" starts with: the dialog's choices (shared `MakeVideoInput`'s). */
export interface MakeVideoChoice {
  sceneCount: number
  preset: VideoPresetName
  /** The video's target length in seconds (issue 42 item 1); starts at the node's. */
  targetSeconds: number
  /** "Animate each scene with [model]" (issue 22 item 4); absent: stills. */
  animate?: { modelId: string }
}

/**
 * "Make video" (issue 13 item 6): how many scenes, the length (issue 42 item 1: the node's to
 * start with; a length with no room for the scenes is said in words and cannot start), which
 * format, "Animate each scene with [model]" (issue 22 item 4: off by default; the catalog's
 * video models, grouped by provider), the chain's cost part by part with its one total (a clip
 * per scene when animated), and the button that starts it. The scene count starts at the most the balance pays for (at most the
 * default 6); past the balance the button is disabled and the dialog links to /subscription.
 */
export function MakeVideoDialog(props: {
  open: boolean
  onOpenChange: (open: boolean) => void
  topic: string
  /** The Script Generator's length, in seconds: where the dialog's Length starts. */
  targetSeconds: number
  costs: GenerationCosts | undefined
  /** The credit balance; null while unknown. */
  balance: number | null
  busy: boolean
  /** The catalog's video models (undefined while loading); none: no "Animate" offered. */
  videoModels: readonly CatalogModel[] | undefined
  onStart: (choice: MakeVideoChoice) => void
}) {
  const { costs, balance, videoModels } = props
  const sliderId = useId()
  const presetId = useId()
  const animateId = useId()
  const animateModelId = useId()
  const [sceneCount, setSceneCount] = useState<number | null>(null)
  const [preset, setPreset] = useState<VideoPresetName>('16:9')
  const [targetSeconds, setTargetSeconds] = useState(props.targetSeconds)
  const [animateOn, setAnimateOn] = useState(false)
  const [pickedModel, setPickedModel] = useState<string | null>(null)
  const model =
    videoModels?.find((m) => m.id === pickedModel) ??
    (videoModels ? defaultVideoModel(videoModels) : undefined)
  const animate = animateOn && model ? model : null
  const start =
    costs && balance !== null
      ? affordableSceneCount(costs, balance, SCENE_COUNT_DEFAULT, animate) || SCENE_COUNT_MIN
      : SCENE_COUNT_DEFAULT
  const count = sceneCount ?? start
  const total = costs ? makeVideoCost(costs, count, animate) : undefined
  const short = total !== undefined && balance !== null && total > balance
  const lengthProblem = targetLengthProblem({ targetSeconds, sceneCount: count })
  const onOpenChange = (open: boolean) => {
    if (!open) {
      setSceneCount(null)
      setAnimateOn(false)
    }
    props.onOpenChange(open)
  }
  return (
    <Dialog open={props.open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Make a video</DialogTitle>
          <DialogDescription>
            “{props.topic}” becomes a script for a {formatTargetLength(targetSeconds)} video,{' '}
            {count} {count === 1 ? 'scene' : 'scenes'} with an image each, narration and subtitles,
            rendered into an MP4. Every step appears on the canvas as it is done.
          </DialogDescription>
        </DialogHeader>
        <div className="grid grid-cols-1 gap-4">
          <div className="grid gap-1">
            <label htmlFor={sliderId} className="font-medium text-sm">
              Number of scenes: {count}
            </label>
            <input
              id={sliderId}
              type="range"
              min={SCENE_COUNT_MIN}
              max={SCENE_COUNT_MAX}
              value={count}
              onChange={(e) => setSceneCount(Number(e.target.value))}
              className="w-full accent-primary"
              aria-invalid={lengthProblem ? true : undefined}
              aria-describedby={lengthProblem ? `${sliderId}-problem` : undefined}
            />
          </div>
          <LengthField look="dialog" value={targetSeconds} onChange={setTargetSeconds} />
          {lengthProblem ? (
            <p id={`${sliderId}-problem`} className="text-destructive text-sm">
              {lengthProblem}
            </p>
          ) : null}
          <div className="grid gap-1">
            <label htmlFor={presetId} className="font-medium text-sm">
              Format
            </label>
            <select
              id={presetId}
              value={preset}
              onChange={(e) => setPreset(e.target.value as VideoPresetName)}
              className="h-9 rounded-md border bg-background px-2 text-sm"
            >
              {VIDEO_PRESET_NAMES.map((p) => (
                <option key={p} value={p}>
                  {PRESET_LABELS[p]}
                </option>
              ))}
            </select>
          </div>
          {videoModels === undefined || videoModels.length > 0 ? (
            <div className="grid gap-1">
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <Checkbox
                  id={animateId}
                  checked={animateOn}
                  disabled={!model}
                  onCheckedChange={(v) => setAnimateOn(v === true)}
                />
                <label htmlFor={animateId} className="font-medium text-sm">
                  Animate each scene with
                </label>
                <label htmlFor={animateModelId} className="sr-only">
                  Video model to animate the scenes with
                </label>
                <select
                  id={animateModelId}
                  value={model?.id ?? ''}
                  disabled={!animateOn || !model}
                  onChange={(e) => setPickedModel(e.target.value)}
                  className="h-9 min-w-0 flex-1 rounded-md border bg-background px-2 text-sm disabled:opacity-50"
                >
                  {model ? null : <option value="">Loading video models...</option>}
                  {groupModelsByProvider(videoModels ?? []).map((group) => (
                    <optgroup key={group.provider} label={group.providerName}>
                      {group.models.map((m) => (
                        <option key={m.id} value={m.id}>
                          {modelOptionLabel(m)}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
              </div>
              <p className="text-muted-foreground text-xs">
                {animate
                  ? `One ${secondsText(makeVideoClipSeconds(animate))} s clip per scene, made from its image: the scenes move instead of zooming over a still.`
                  : 'Off: each scene is its image with a slow zoom.'}
              </p>
            </div>
          ) : null}
          {costs ? (
            <table className="w-full text-sm" aria-label="Cost">
              <tbody>
                {makeVideoCostParts(costs, count, animate).map((part) => (
                  <tr key={part.label}>
                    <td className="py-0.5 text-muted-foreground">{part.label}</td>
                    <td className="py-0.5 text-right tabular-nums">{credits(part.credits)}</td>
                  </tr>
                ))}
                <tr className="border-t font-medium">
                  <td className="pt-1">Total</td>
                  <td className="pt-1 text-right tabular-nums">{credits(total ?? 0)}</td>
                </tr>
              </tbody>
            </table>
          ) : (
            <p className="text-muted-foreground text-sm">Loading the costs...</p>
          )}
          {balance !== null ? (
            <p className={short ? 'text-destructive text-sm' : 'text-muted-foreground text-sm'}>
              You have {credits(balance)}.
              {short ? (
                <>
                  {' '}
                  Choose fewer scenes, or{' '}
                  <Link href="/subscription" className="underline">
                    get more credits
                  </Link>
                  .
                </>
              ) : null}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            type="button"
            disabled={total === undefined || short || lengthProblem !== null || props.busy}
            aria-busy={props.busy || undefined}
            onClick={() =>
              props.onStart({
                sceneCount: count,
                preset,
                targetSeconds,
                ...(animate ? { animate: { modelId: animate.id } } : {}),
              })
            }
          >
            {props.busy ? <Spinner /> : <FilmIcon aria-hidden />}
            {total === undefined ? 'Make video' : `Make video · ${credits(total)}`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
