import type { NodeProps } from '@xyflow/react'
import { ClapperboardIcon } from 'lucide-react'
import { memo } from 'react'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useCompactNodes } from '../hooks/use-compact-nodes'
import { useNodeData } from '../hooks/use-node-data'
import type { SceneNode as SceneFlowNode } from '../lib/node-types'
import { TextAreaField, TextField } from './node-fields'
import { NodeShell } from './node-shell'

/** Scene: its number, narration and visual instructions (spec §3). */
export const SceneNode = memo(function SceneNode({ id, selected }: NodeProps<SceneFlowNode>) {
  const data = useNodeData(id, 'scene')
  const { updateNodeData } = useCanvasActions()
  const compact = useCompactNodes()
  if (!data) return null
  return (
    <NodeShell
      label={data.label}
      icon={ClapperboardIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      compact={compact}
      summary={data.visuals || data.narration}
      accent="bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-100"
    >
      <TextField
        label="Scene number"
        value={data.sceneNumber}
        onChange={(sceneNumber) => updateNodeData(id, { sceneNumber })}
      />
      <TextAreaField
        label="Narration"
        value={data.narration}
        placeholder="What the narrator says"
        onChange={(narration) => updateNodeData(id, { narration })}
      />
      <TextAreaField
        label="Visuals"
        value={data.visuals}
        placeholder="What the viewer sees"
        hint="Connect an image generator to use these as its prompt."
        onChange={(visuals) => updateNodeData(id, { visuals })}
      />
    </NodeShell>
  )
})
