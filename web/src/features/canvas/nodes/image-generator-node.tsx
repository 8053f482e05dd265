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
import { memo } from 'react'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useCompactNodes } from '../hooks/use-compact-nodes'
import { useNodeData } from '../hooks/use-node-data'
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
 * model, size, steps, guidance and seed, with spec §5's ranges; Generate Image needs a
 * prompt and a model. The model list arrives with generation, so the select shows only a
 * model already stored on the node.
 */
export const ImageGeneratorNode = memo(function ImageGeneratorNode({
  id,
  selected,
}: NodeProps<ImageGeneratorFlowNode>) {
  const data = useNodeData(id, 'image-generator')
  const { updateNodeData } = useCanvasActions()
  const compact = useCompactNodes()
  if (!data) return null
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
        options={[]}
        placeholder="Models load with image generation"
        disabled={data.modelId === ''}
        onChange={(modelId) => updateNodeData(id, { modelId })}
      />
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
      <GenerateButton label="Generate Image" issue={imageGenerationIssue(data)} />
    </NodeShell>
  )
})
