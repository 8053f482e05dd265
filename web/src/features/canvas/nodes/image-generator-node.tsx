import type { NodeProps } from '@xyflow/react'
import { ImagePlusIcon } from 'lucide-react'
import { memo, useEffect, useMemo } from 'react'
import { useGenerateImage, useImageModels } from '../api/ai-api'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useFeedingScenes } from '../hooks/use-feeding-scenes'
import { useProjectId } from '../hooks/use-generation'
import { useNodeData } from '../hooks/use-node-data'
import { useShowsStale } from '../hooks/use-shows-stale'
import { useNodeGeneration } from '../hooks/use-node-generation'
import {
  buildImageRequest,
  firstModelSelection,
  firstVersionOf,
  versionOptionsOf,
} from '../lib/generation'
import type { ImageGeneratorNode as ImageGeneratorFlowNode } from '../lib/node-types'
import { IMAGE_NUMBER_RULES, imageGenerationIssue, seedIssue } from '../lib/validation'
import { GenerateButton } from './generate-button'
import { NumberField, SelectField, TextField } from './node-fields'
import { NodeShell } from './node-shell'

/**
 * Image generator: prompt (filled from a connected scene's visuals), negative prompt,
 * model (the first of `GET /api/csas/models?limit=10` and its first version auto-selected
 * when the node has none, spec §4), size, steps, guidance and seed, with spec §5's ranges.
 * Generate Image needs a prompt and a model and sends a random seed when the seed is empty;
 * the server's job writes an image node 350 to the right, connected (spec §4, issue 12), and
 * its state on this node.
 */
/** Under the prompt: where it came from, and which scenes feed it (issue 14 item 6). */
function promptHint(fromScene: boolean, scenes: string): string | undefined {
  if (!fromScene) return scenes ? `Connected to ${scenes}.` : undefined
  return scenes
    ? `Copied from a scene’s visuals. Fed by ${scenes}.`
    : 'Copied from a scene’s visuals.'
}

export const ImageGeneratorNode = memo(function ImageGeneratorNode({
  id,
  selected,
}: NodeProps<ImageGeneratorFlowNode>) {
  const data = useNodeData(id, 'image-generator')
  const stale = useShowsStale(id)
  const feedingScenes = useFeedingScenes(id)
  const { updateNodeData, fillNodeDefaults } = useCanvasActions()
  const projectId = useProjectId()
  const { button, generate } = useNodeGeneration(id, 'image', useGenerateImage())
  const models = useImageModels()
  const items = models.data?.items
  const modelOptions = useMemo(
    () => (items ?? []).map((m) => ({ value: String(m.id), label: m.name })),
    [items],
  )
  const modelId = data?.modelId
  const versionOptions = useMemo(() => versionOptionsOf(items, modelId ?? ''), [items, modelId])
  const modelVersionId = data?.modelVersionId

  // The first model and its first version, when the node has none (spec §4); outside undo,
  // which would otherwise undo it only to see it selected again.
  useEffect(() => {
    if (modelId === undefined || !items) return
    if (modelId === '') {
      const first = firstModelSelection(items)
      if (first) fillNodeDefaults(id, first)
    } else if (modelVersionId === '') {
      const version = firstVersionOf(items, modelId)
      if (version) fillNodeDefaults(id, { modelVersionId: version })
    }
  }, [id, items, modelId, modelVersionId, fillNodeDefaults])

  if (!data) return null
  const issue = imageGenerationIssue(data)
  const onGenerate = () => {
    if (issue || projectId === null) return
    generate(buildImageRequest(projectId, data))
  }
  return (
    <NodeShell
      label={data.label}
      icon={ImagePlusIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      summary={data.prompt}
      accent="bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <TextField
        label="Prompt"
        rows={3}
        value={data.prompt}
        placeholder="Describe the image"
        hint={promptHint(data.promptFromScene === 'true', feedingScenes)}
        onChange={(prompt) => updateNodeData(id, { prompt })}
      />
      <TextField
        label="Negative prompt"
        rows={2}
        value={data.negativePrompt}
        placeholder="What to leave out"
        onChange={(negativePrompt) => updateNodeData(id, { negativePrompt })}
      />
      <SelectField
        label="Model"
        value={data.modelId}
        options={modelOptions}
        placeholder={models.isPending ? 'Loading models...' : 'Select a model'}
        error={models.isError ? 'The models could not be loaded.' : null}
        onChange={(next) =>
          updateNodeData(id, { modelId: next, modelVersionId: firstVersionOf(items, next) })
        }
      />
      {versionOptions.length > 1 ? (
        <SelectField
          label="Model version"
          value={data.modelVersionId}
          options={versionOptions}
          placeholder="Select a version"
          onChange={(modelVersionId) => updateNodeData(id, { modelVersionId })}
        />
      ) : null}
      <div className="grid grid-cols-2 gap-2">
        <NumberField
          label="Width"
          value={data.width}
          {...IMAGE_NUMBER_RULES.width}
          onCommit={(width) => updateNodeData(id, { width })}
        />
        <NumberField
          label="Height"
          value={data.height}
          {...IMAGE_NUMBER_RULES.height}
          onCommit={(height) => updateNodeData(id, { height })}
        />
        <NumberField
          label="Steps"
          value={data.numInferenceSteps}
          {...IMAGE_NUMBER_RULES.steps}
          onCommit={(numInferenceSteps) => updateNodeData(id, { numInferenceSteps })}
        />
        <NumberField
          label="Guidance"
          value={data.guidanceScale}
          {...IMAGE_NUMBER_RULES.guidance}
          onCommit={(guidanceScale) => updateNodeData(id, { guidanceScale })}
        />
      </div>
      <TextField
        label="Seed"
        value={data.seed}
        placeholder="Random"
        error={seedIssue(data.seed)}
        hint="Leave empty for a random seed."
        onChange={(seed) => updateNodeData(id, { seed })}
      />
      <GenerateButton
        stale={stale}
        label="Generate Image"
        issue={issue}
        {...button}
        onGenerate={onGenerate}
      />
    </NodeShell>
  )
})
