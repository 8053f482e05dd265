import { GENERATED_IMAGE_FILENAME } from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { DownloadIcon, ImageIcon, ImageOffIcon } from 'lucide-react'
import { memo, useState } from 'react'
import { Button } from '@/components/ui/button'
import { useNodeData } from '../hooks/use-node-data'
import { downloadUrl } from '../lib/generation'
import type { ImageNode as ImageFlowNode } from '../lib/node-types'
import { NodeShell } from './node-shell'

/**
 * Image: shows the generated image, or "Image failed to load" when it cannot load
 * (spec §8), and downloads it as generated-image.jpg (spec §9): the api serves
 * `<imageUrl>?download=1` as an attachment of that name, and the link says so too.
 */
export const ImageNode = memo(function ImageNode({ id, selected }: NodeProps<ImageFlowNode>) {
  const data = useNodeData(id, 'image')
  const [failedUrl, setFailedUrl] = useState<string | null>(null)
  if (!data) return null
  const failed = !data.imageUrl || failedUrl === data.imageUrl
  return (
    <NodeShell
      label={data.label}
      icon={ImageIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      wide
      accent="bg-rose-50 text-rose-900 dark:bg-rose-950 dark:text-rose-100"
    >
      {failed ? (
        <div className="flex aspect-video flex-col items-center justify-center gap-2 rounded-md border border-dashed bg-muted text-muted-foreground text-sm">
          <ImageOffIcon className="size-6" aria-hidden />
          Image failed to load
        </div>
      ) : (
        <img
          src={data.imageUrl}
          alt={data.prompt || 'Generated image'}
          width={data.width}
          height={data.height}
          className="h-auto w-full rounded-md border"
          onError={() => setFailedUrl(data.imageUrl)}
          draggable={false}
        />
      )}
      {data.prompt ? (
        <p className="line-clamp-3 text-muted-foreground text-xs">{data.prompt}</p>
      ) : null}
      {failed ? (
        <Button type="button" size="sm" variant="outline" className="nodrag" disabled>
          <DownloadIcon aria-hidden />
          Download
        </Button>
      ) : (
        <Button asChild size="sm" variant="outline" className="nodrag">
          <a href={downloadUrl(data.imageUrl)} download={GENERATED_IMAGE_FILENAME}>
            <DownloadIcon aria-hidden />
            Download
          </a>
        </Button>
      )}
    </NodeShell>
  )
})
