import { SCENE_COUNT_MAX, SCENE_COUNT_MIN } from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { TypeIcon } from 'lucide-react'
import { memo } from 'react'
import { useGenerateScenes } from '../api/ai-api'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useNodeData } from '../hooks/use-node-data'
import { useShowsStale } from '../hooks/use-shows-stale'
import { useNodeGeneration } from '../hooks/use-node-generation'
import { buildScenesRequest } from '../lib/generation'
import type { EditableTextNode as EditableTextFlowNode } from '../lib/node-types'
import { sceneGenerationIssue } from '../lib/validation'
import { GenerateButton } from './generate-button'
import { SliderField, TextField } from './node-fields'
import { NodeShell } from './node-shell'

/**
 * Text node: the script's content, the number of scenes (1 to 25, default 6) and Generate
 * Scenes, which needs content (spec §5 Scene generation); the server's job writes "Scene N"
 * nodes in one row below, each connected (spec §4, §9, issue 12), and its state on this node.
 */
export const EditableTextNode = memo(function EditableTextNode({
  id,
  selected,
}: NodeProps<EditableTextFlowNode>) {
  const data = useNodeData(id, 'editable-text')
  const stale = useShowsStale(id)
  const { updateNodeData } = useCanvasActions()
  const { button, generate } = useNodeGeneration(id, 'scenes', useGenerateScenes())
  if (!data) return null
  const issue = sceneGenerationIssue(data)
  const onGenerate = () => {
    if (issue) return
    generate(buildScenesRequest(data))
  }
  return (
    <NodeShell
      label={data.label}
      icon={TypeIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      summary={data.content}
      accent="bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      <TextField
        label="Content"
        rows={6}
        value={data.content}
        placeholder="Write or paste a script"
        onChange={(content) => updateNodeData(id, { content })}
      />
      <SliderField
        label="Number of scenes"
        value={data.sceneCount}
        min={SCENE_COUNT_MIN}
        max={SCENE_COUNT_MAX}
        onChange={(sceneCount) => updateNodeData(id, { sceneCount })}
      />
      <GenerateButton
        stale={stale}
        label="Generate Scenes"
        issue={issue}
        {...button}
        onGenerate={onGenerate}
      />
    </NodeShell>
  )
})
