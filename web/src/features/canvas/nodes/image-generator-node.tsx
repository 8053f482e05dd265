import {
  IMAGE_GUIDANCE_MAX,
  IMAGE_GUIDANCE_MIN,
  IMAGE_GUIDANCE_STEP,
  IMAGE_SIZE_MAX_PX,
  IMAGE_SIZE_MIN_PX,
  IMAGE_SIZE_STEP_PX,
  IMAGE_STEPS_MAX,
  IMAGE_STEPS_MIN,
} from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { ImagePlusIcon } from 'lucide-react'
import { memo, useEffect, useMemo } from 'react'
import { useGenerateImage, useImageModels } from '@/lib/ai-api'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useCompactNodes } from '../hooks/use-compact-nodes'
import { useGenerationInfo, useGenerationRun, useProjectId } from '../hooks/use-generation'
import { useNodeData } from '../hooks/use-node-data'
import {
  buildImageRequest,
  firstModelSelection,
  firstVersionOf,
  imageResult,
  versionOptionsOf,
} from '../lib/generation'
import type { ImageGeneratorNode as ImageGeneratorFlowNode } from '../lib/node-types'
import {
  guidanceIssue,
  imageGenerationIssue,
  imageSizeIssue,
  seedIssue,
  stepsIssue,
} from '../lib/validation'
import { GenerateButton } from './generate-button'
import { NumberField, SelectField, TextAreaField, TextField } from './node-fields'
import { NodeShell } from './node-shell'

const widthIssue = (n: number) => imageSizeIssue(n, 'Width')
const heightIssue = (n: number) => imageSizeIssue(n, 'Height')

/**
 * Image generator: prompt (filled from a connected scene's visuals), negative prompt,
 * model (the first of `GET /api/csas/models?limit=10` and its first version auto-selected
 * when the node has none, spec §4), size, steps, guidance and seed, with spec §5's ranges.
 * Generate Image needs a prompt and a model, sends a random seed when the seed is empty,
 * and writes an image node 350 to the right, connected (spec §4).
 */
export const ImageGeneratorNode = memo(function ImageGeneratorNode({
  id,
  selected,
}: NodeProps<ImageGeneratorFlowNode>) {
  const data = useNodeData(id, 'image-generator')
  const { updateNodeData, fillNodeDefaults, addGraph, getNode } = useCanvasActions()
  const compact = useCompactNodes()
  const projectId = useProjectId()
  const info = useGenerationInfo('image')
  const generation = useGenerationRun('image', useGenerateImage())
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
  const generate = () => {
    const clickedAt = getNode(id)?.position
    if (issue || projectId === null || !clickedAt) return
    const request = buildImageRequest(projectId, data)
    void generation.run(request, (answer) => {
      // Where the node is now; if it was deleted meanwhile, where it was (the result was paid for).
      const generator = getNode(id) ?? { id, position: clickedAt }
      addGraph(imageResult(generator, request, answer))
    })
  }
  return (
    <NodeShell
      label={data.label}
      icon={ImagePlusIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      compact={compact}
      summary={data.prompt}
      accent="bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <TextAreaField
        label="Prompt"
        value={data.prompt}
        placeholder="Describe the image"
        hint={data.promptFromScene === 'true' ? 'Copied from a scene’s visuals.' : undefined}
        onChange={(prompt) => updateNodeData(id, { prompt })}
      />
      <TextAreaField
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
          min={IMAGE_SIZE_MIN_PX}
          max={IMAGE_SIZE_MAX_PX}
          step={IMAGE_SIZE_STEP_PX}
          validate={widthIssue}
          onCommit={(width) => updateNodeData(id, { width })}
        />
        <NumberField
          label="Height"
          value={data.height}
          min={IMAGE_SIZE_MIN_PX}
          max={IMAGE_SIZE_MAX_PX}
          step={IMAGE_SIZE_STEP_PX}
          validate={heightIssue}
          onCommit={(height) => updateNodeData(id, { height })}
        />
        <NumberField
          label="Steps"
          value={data.numInferenceSteps}
          min={IMAGE_STEPS_MIN}
          max={IMAGE_STEPS_MAX}
          step={1}
          validate={stepsIssue}
          onCommit={(numInferenceSteps) => updateNodeData(id, { numInferenceSteps })}
        />
        <NumberField
          label="Guidance"
          value={data.guidanceScale}
          min={IMAGE_GUIDANCE_MIN}
          max={IMAGE_GUIDANCE_MAX}
          step={IMAGE_GUIDANCE_STEP}
          validate={guidanceIssue}
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
        label="Generate Image"
        info={info}
        issue={issue}
        busy={generation.busy}
        error={generation.error}
        onGenerate={generate}
      />
    </NodeShell>
  )
})
