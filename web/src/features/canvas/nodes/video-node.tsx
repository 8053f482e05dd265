import { VIDEO_PRESET_NAMES, videoRenderCost } from '@reelgraph/shared'
import { useQueryClient } from '@tanstack/react-query'
import type { NodeProps } from '@xyflow/react'
import { DownloadIcon, FilmIcon } from 'lucide-react'
import { memo, useEffect, useId, useRef } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { toast } from '@/hooks/use-toast'
import { refreshCredits, useAiProviders, useRenderVideo } from '@/lib/ai-api'
import { isApiError } from '@/lib/api-client'
import { useCanEdit } from '../hooks/use-can-edit'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useProjectId } from '../hooks/use-generation'
import { useNodeData } from '../hooks/use-node-data'
import { useNodeJob } from '../hooks/use-node-job'
import { useVideoInputs } from '../hooks/use-video-inputs'
import { downloadUrl, generationFailureMessage } from '../lib/generation'
import { isJobActive } from '../lib/job-state'
import type { VideoNode as VideoFlowNode } from '../lib/node-types'
import { GenerateButton } from './generate-button'
import { SelectField, TextField } from './node-fields'
import { NodeShell } from './node-shell'

/** A labelled checkbox writing one boolean field. */
function CheckField(props: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId()
  const canEdit = useCanEdit()
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id={id}
        className="nodrag"
        checked={props.checked}
        disabled={!canEdit}
        onCheckedChange={(v) => props.onChange(v === true)}
      />
      <label htmlFor={id} className="text-xs">
        {props.label}
      </label>
    </div>
  )
}

/**
 * Video (issue 13 item 5): takes the scenes connected to it, or a connected text node's
 * scenes, in `sceneNumber` order, each with its narration and image (scene -> image
 * generator -> image). Lists the scenes without an image; settings (preset, voice, subtitles,
 * music); "Render video · N credits" (COST_VIDEO + COST_VOICE per scene) starts a render job
 * whose stage and progress show while it runs (with Cancel); afterwards a player, the MP4,
 * SRT and VTT downloads, and a Stale badge when an input changed since that render.
 */
export const VideoNode = memo(function VideoNode({ id, selected }: NodeProps<VideoFlowNode>) {
  const data = useNodeData(id, 'video')
  const inputs = useVideoInputs(id)
  const job = useNodeJob(id)
  const projectId = useProjectId()
  const providers = useAiProviders()
  const render = useRenderVideo()
  const queryClient = useQueryClient()
  const { updateNodeData } = useCanvasActions()
  // Credits may come back when a render ends (a failure or a cancel refunds it).
  const wasActive = useRef(false)
  useEffect(() => {
    const active = isJobActive(job)
    if (wasActive.current && !active) void refreshCredits(queryClient)
    wasActive.current = active
  }, [job, queryClient])
  if (!data) return null

  const scenes = inputs?.scenes ?? []
  const missing = inputs?.missing ?? []
  const costs = providers.data?.costs
  const cost = costs ? videoRenderCost(costs, scenes.length) : undefined
  const issue =
    scenes.length === 0
      ? 'Connect scenes, or a text node with scenes, to render a video.'
      : missing.length > 0
        ? 'Every scene needs an image first.'
        : null
  const stale = data.inputHash !== '' && inputs !== null && inputs.hash !== data.inputHash
  const busy = render.isPending || isJobActive(job)
  const onRender = () => {
    if (issue || busy || projectId === null) return
    render.mutate(
      { projectId, nodeId: id },
      {
        onError: (error) => {
          if (isApiError(error, 409, 'JOB_CANCELLED')) return
          console.error('render video failed', error)
          toast({ title: generationFailureMessage('video', error), variant: 'destructive' })
        },
      },
    )
  }

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
        <TextField
          label="Voice"
          value={data.voice}
          placeholder="Default"
          onChange={(voice) => updateNodeData(id, { voice })}
        />
      </div>
      <div className="flex gap-4">
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
      </div>
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
      {data.videoUrl ? (
        <div className="grid gap-2">
          {stale ? (
            <Badge variant="secondary" className="w-fit">
              Stale: an input changed since this render
            </Badge>
          ) : null}
          <video
            controls
            preload="metadata"
            src={data.videoUrl}
            className="nodrag nowheel w-full rounded-md border bg-black"
          >
            {data.vttUrl ? <track kind="subtitles" src={data.vttUrl} label="Subtitles" /> : null}
          </video>
          <div className="flex flex-wrap gap-2">
            {(
              [
                ['MP4', data.videoUrl],
                ['SRT', data.srtUrl],
                ['VTT', data.vttUrl],
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
        </div>
      ) : null}
    </NodeShell>
  )
})
