import {
  affordableSceneCount,
  type GenerationCosts,
  makeVideoCost,
  makeVideoCostParts,
  SCENE_COUNT_DEFAULT,
  SCENE_COUNT_MAX,
  SCENE_COUNT_MIN,
  VIDEO_PRESET_NAMES,
  type VideoPresetName,
} from '@reelgraph/shared'
import { FilmIcon } from 'lucide-react'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'

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

/**
 * "Make video" (issue 13 item 6): how many scenes and which format, the chain's cost part by
 * part with its one total, and the button that starts it. The scene count starts at the most
 * the balance pays for (at most the default 6); past the balance the button is disabled and
 * the dialog links to /subscription.
 */
export function MakeVideoDialog(props: {
  open: boolean
  onOpenChange: (open: boolean) => void
  topic: string
  costs: GenerationCosts | undefined
  /** The credit balance; null while unknown. */
  balance: number | null
  busy: boolean
  onStart: (choice: { sceneCount: number; preset: VideoPresetName }) => void
}) {
  const { costs, balance } = props
  const sliderId = useId()
  const presetId = useId()
  const [sceneCount, setSceneCount] = useState<number | null>(null)
  const [preset, setPreset] = useState<VideoPresetName>('16:9')
  const start =
    costs && balance !== null
      ? affordableSceneCount(costs, balance, SCENE_COUNT_DEFAULT) || SCENE_COUNT_MIN
      : SCENE_COUNT_DEFAULT
  const count = sceneCount ?? start
  const total = costs ? makeVideoCost(costs, count) : undefined
  const short = total !== undefined && balance !== null && total > balance
  const onOpenChange = (open: boolean) => {
    if (!open) setSceneCount(null)
    props.onOpenChange(open)
  }
  return (
    <Dialog open={props.open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Make a video</DialogTitle>
          <DialogDescription>
            “{props.topic}” becomes a script, {count} {count === 1 ? 'scene' : 'scenes'} with an
            image each, narration and subtitles, rendered into an MP4. Every step appears on the
            canvas as it is done.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
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
            />
          </div>
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
          {costs ? (
            <table className="w-full text-sm" aria-label="Cost">
              <tbody>
                {makeVideoCostParts(costs, count).map((part) => (
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
            disabled={total === undefined || short || props.busy}
            aria-busy={props.busy || undefined}
            onClick={() => props.onStart({ sceneCount: count, preset })}
          >
            {props.busy ? <Spinner /> : <FilmIcon aria-hidden />}
            {total === undefined ? 'Make video' : `Make video · ${credits(total)}`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
