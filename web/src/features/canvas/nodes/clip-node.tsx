import { type ClipTake, clipResultData, type NodeData } from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { DownloadIcon, SquarePlayIcon, VideoOffIcon } from 'lucide-react'
import { memo, useState } from 'react'
import { Button } from '@/components/ui/button'
import { useVideoModels } from '../api/ai-api'
import { useCanEdit } from '../hooks/use-can-edit'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useNodeData } from '../hooks/use-node-data'
import { clipLengthText, clipTakeLabel, modelNameOf } from '../lib/clip-generation'
import { downloadUrl } from '../lib/generation'
import type { ClipNode as ClipFlowNode } from '../lib/node-types'
import { NodeShell } from './node-shell'

/**
 * Clip (issue 22 item 3): a generated clip, the result of a Video Generator, placed and
 * connected by the server's job as every result is (spec §4). A player with the poster, the
 * clip's length, the model and the prompt it came from, the MP4 download, and its last five
 * takes: picking one makes it the current take for everyone (shared `clipResultData`), the one
 * a Video node renders the scene with.
 */
export const ClipNode = memo(function ClipNode({ id, selected }: NodeProps<ClipFlowNode>) {
  const data = useNodeData(id, 'clip')
  const models = useVideoModels()
  const canEdit = useCanEdit()
  const { updateNodeData } = useCanvasActions()
  const [failedUrl, setFailedUrl] = useState<string | null>(null)
  if (!data) return null
  const takes = data.clipTakes
  const failed = !data.videoUrl || failedUrl === data.videoUrl
  const pick = (take: ClipTake) => {
    if (take.videoUrl === data.videoUrl) return
    // shared's stored form of the Clip node's fields (flat values).
    updateNodeData(id, clipResultData(takes, take) as NodeData)
  }
  return (
    <NodeShell
      label={data.label}
      icon={SquarePlayIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      wide
      summary={data.prompt}
      accent="bg-pink-50 text-pink-900 dark:bg-pink-950 dark:text-pink-100"
    >
      {failed ? (
        <div className="flex aspect-video flex-col items-center justify-center gap-2 rounded-md border border-dashed bg-muted text-muted-foreground text-sm">
          <VideoOffIcon className="size-6" aria-hidden />
          {data.videoUrl ? 'Clip failed to load' : 'No clip yet'}
        </div>
      ) : (
        <video
          key={data.videoUrl}
          controls
          loop
          playsInline
          preload="metadata"
          src={data.videoUrl}
          poster={data.posterUrl || undefined}
          aria-label={`Clip: ${data.prompt || 'generated clip'}`}
          className="nodrag nowheel aspect-video w-full rounded-md border bg-black object-contain"
          onError={() => setFailedUrl(data.videoUrl)}
        />
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
        <dt className="text-muted-foreground">Length</dt>
        <dd className="tabular-nums">
          {clipLengthText(data.durationMs)}
          {data.hasAudio ? ' · with sound' : ''}
        </dd>
        <dt className="text-muted-foreground">Model</dt>
        <dd className="truncate">{modelNameOf(models.data?.items, data.modelId)}</dd>
        <dt className="text-muted-foreground">Prompt</dt>
        <dd className="line-clamp-2" title={data.prompt}>
          {data.prompt || '—'}
        </dd>
      </dl>
      {failed ? (
        <Button type="button" size="sm" variant="outline" className="nodrag" disabled>
          <DownloadIcon aria-hidden />
          MP4
        </Button>
      ) : (
        <Button asChild size="sm" variant="outline" className="nodrag">
          <a href={downloadUrl(data.videoUrl)} download>
            <DownloadIcon aria-hidden />
            MP4
          </a>
        </Button>
      )}
      {takes.length > 1 ? (
        <div role="group" aria-label="Takes" className="grid gap-1">
          <p className="font-medium text-xs">Takes</p>
          {takes.map((take, i) => {
            const chosen = take.videoUrl === data.videoUrl
            return (
              <Button
                key={take.videoUrl}
                type="button"
                size="sm"
                variant={chosen ? 'secondary' : 'ghost'}
                className="nodrag h-7 justify-start font-normal text-xs"
                aria-pressed={chosen}
                disabled={!canEdit}
                onClick={() => pick(take)}
              >
                {clipTakeLabel(take, i, takes.length)}
              </Button>
            )
          })}
        </div>
      ) : null}
    </NodeShell>
  )
})
