import { imageGeneratorForScene, readNodeData } from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { ClapperboardIcon, ImagePlusIcon } from 'lucide-react'
import { memo } from 'react'
import { Button } from '@/components/ui/button'
import { toast } from '@/hooks/use-toast'
import { useCanEdit } from '../hooks/use-can-edit'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useNodeData } from '../hooks/use-node-data'
import { CANVAS_TOASTS } from '../lib/canvas-messages'
import type { SceneNode as SceneFlowNode } from '../lib/node-types'
import { TextField } from './node-fields'
import { NarrationPreviewButton } from './narration-preview-button'
import { NodeShell } from './node-shell'

/**
 * Scene: its number, narration and visual instructions (spec §3), and "Create image
 * generator": the Nodes Library offers no image generator (spec §2, "created by the product
 * itself"), so a scene makes one below itself, connected, its visuals copied into the prompt.
 * Play speaks its narration as the video will (issue 13 item 5).
 */
export const SceneNode = memo(function SceneNode({ id, selected }: NodeProps<SceneFlowNode>) {
  const data = useNodeData(id, 'scene')
  const { updateNodeData, addGraph, getNode } = useCanvasActions()
  const canEdit = useCanEdit()
  if (!data) return null
  const createImageGenerator = () => {
    const scene = getNode(id)
    if (!scene) return
    const addition = imageGeneratorForScene({ ...scene, visuals: data.visuals })
    if (!addGraph(addition)) return
    const generator = addition.nodes[0]
    const copied =
      generator !== undefined &&
      readNodeData('image-generator', generator.data).promptFromScene === 'true'
    toast({
      ...CANVAS_TOASTS.nodeAdded,
      description: copied
        ? 'Image Generator added; visual instructions copied to its prompt'
        : 'Image Generator added to the canvas',
    })
  }
  return (
    <NodeShell
      label={data.label}
      icon={ClapperboardIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      summary={data.visuals || data.narration}
      accent="bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-100"
    >
      <TextField
        label="Scene number"
        value={data.sceneNumber}
        onChange={(sceneNumber) => updateNodeData(id, { sceneNumber })}
      />
      <TextField
        label="Narration"
        rows={3}
        value={data.narration}
        placeholder="What the narrator says"
        onChange={(narration) => updateNodeData(id, { narration })}
      />
      <TextField
        label="Visuals"
        rows={3}
        value={data.visuals}
        placeholder="What the viewer sees"
        hint="Connect an image generator to use these as its prompt."
        onChange={(visuals) => updateNodeData(id, { visuals })}
      />
      <div className="flex gap-2">
        <NarrationPreviewButton nodeId={id} narration={data.narration} />
        <Button
          type="button"
          size="sm"
          variant="outline"
          className="nodrag flex-1"
          disabled={!canEdit}
          onClick={createImageGenerator}
        >
          <ImagePlusIcon aria-hidden />
          Create image generator
        </Button>
      </div>
    </NodeShell>
  )
})
