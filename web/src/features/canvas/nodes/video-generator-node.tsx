import { VIDEO_PRESET_NAMES, type VideoPresetName } from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { VideoIcon } from 'lucide-react'
import { memo, useEffect, useMemo } from 'react'
import { useGenerateVideo, useVideoModels } from '../api/ai-api'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { type ConnectedImage, useConnectedImages } from '../hooks/use-connected-images'
import { useFeedingScenes } from '../hooks/use-feeding-scenes'
import type { GenerationInfo } from '../hooks/use-generation'
import { useNodeData } from '../hooks/use-node-data'
import { useShowsStale } from '../hooks/use-shows-stale'
import { useProjectId } from '../hooks/use-generation'
import { useNodeGeneration } from '../hooks/use-node-generation'
import {
  buildClipRequest,
  capabilityText,
  clipButtonLabel,
  clipCredits,
  clipGenerationIssue,
  clipSeconds,
  costText,
  defaultVideoModel,
  groupModelsByProvider,
  modelOptionLabel,
  OFFLINE_MOTION_LABEL,
  secondsText,
  snapToModel,
} from '../lib/clip-generation'
import type { VideoGeneratorNode as VideoGeneratorFlowNode } from '../lib/node-types'
import { seedIssue } from '../lib/validation'
import { GenerateButton } from './generate-button'
import { CheckField, GroupedSelectField, SelectField, TextField } from './node-fields'
import { NodeShell } from './node-shell'

/** What the "Offline motion draft" badge explains. */
const OFFLINE_MOTION_EXPLANATION =
  'This model makes a draft here, without an AI video model: camera motion and parallax over the start image. Configure a video provider (fal, Replicate, Gemini or ComfyUI) for generated motion.'

/** Under the prompt: where it came from, and which scenes feed it (as the image generator). */
function promptHint(fromScene: boolean, scenes: string): string | undefined {
  if (!fromScene) return scenes ? `Connected to ${scenes}.` : undefined
  return scenes
    ? `Copied from a scene’s visuals. Fed by ${scenes}.`
    : 'Copied from a scene’s visuals.'
}

/**
 * The options of a start image or last frame: none, each connected image with a picture, and
 * the stored one when its image is no longer connected (so the field says what is sent).
 */
function imageOptions(images: readonly ConnectedImage[], current: string) {
  const options = [{ value: '', label: 'None' }]
  for (const image of images) {
    if (image.imageUrl && !options.some((o) => o.value === image.imageUrl)) {
      options.push({ value: image.imageUrl, label: image.label })
    }
  }
  if (current && !options.some((o) => o.value === current)) {
    options.push({ value: current, label: 'An image no longer connected' })
  }
  return options
}

/**
 * Under a start image or last frame: how to get one while no image is connected, or that the
 * picked one is no longer connected; nothing when the field names it.
 */
function imageHint(images: readonly ConnectedImage[], url: string): string | undefined {
  if (images.length === 0 && !url) return 'Connect an image node to use its picture.'
  if (url && !images.some((i) => i.imageUrl === url)) return 'Its image is no longer connected.'
  return undefined
}

/** A small preview of the picked image, beside its field. */
function Thumbnail({ url, alt }: { url: string; alt: string }) {
  if (!url) return null
  return (
    <img
      src={url}
      alt={alt}
      className="h-12 w-auto max-w-20 shrink-0 rounded border object-cover"
      draggable={false}
    />
  )
}

/**
 * Video Generator (issue 22 item 3): a prompt (copied from a connected scene's visuals, as the
 * image generator's is), a model from the catalog's video models grouped by provider with
 * what each can do and costs, a start image (a connected image node) and a last frame where
 * the model takes them, the duration snapped to the model's lengths, the aspect ratio, seed
 * and "With sound" where the model makes it. "Generate clip · 5 s · N credits" starts a clip
 * job; its state (queued, the provider's queue position, progress, failed and refunded,
 * Cancel) shows under it for every member, and the server's job writes the Clip node.
 */
export const VideoGeneratorNode = memo(function VideoGeneratorNode({
  id,
  selected,
}: NodeProps<VideoGeneratorFlowNode>) {
  const data = useNodeData(id, 'video-generator')
  const stale = useShowsStale(id)
  const feedingScenes = useFeedingScenes(id)
  const images = useConnectedImages(id)
  const { updateNodeData, fillNodeDefaults } = useCanvasActions()
  const models = useVideoModels()
  const items = models.data?.items
  const model = items?.find((m) => m.id === data?.modelId)
  const groups = useMemo(
    () =>
      groupModelsByProvider(items ?? []).map((g) => ({
        label: g.providerName,
        options: g.models.map((m) => ({ value: m.id, label: modelOptionLabel(m) })),
      })),
    [items],
  )
  const durationSeconds = data?.durationSeconds ?? 0
  const info: GenerationInfo = {
    cost: model ? clipCredits(model, { durationSeconds }) : undefined,
    offline: model?.offline ?? false,
    providerName: model?.providerName,
  }
  const { button, generate } = useNodeGeneration(id, 'clip', useGenerateVideo(), info)
  const projectId = useProjectId()

  // A new node gets the first model that runs at a provider; a stored duration or aspect
  // ratio its model does not make is snapped to one it does. Outside undo, like the image
  // generator's first model.
  const modelId = data?.modelId
  const aspectRatio = data?.aspectRatio
  useEffect(() => {
    if (!items || modelId === undefined || aspectRatio === undefined) return
    const settings = { durationSeconds, aspectRatio }
    const chosen = modelId === '' ? defaultVideoModel(items) : items.find((m) => m.id === modelId)
    if (!chosen) return
    const patch = {
      ...(modelId === '' ? { modelId: chosen.id } : {}),
      ...snapToModel(chosen, settings),
    }
    if (Object.keys(patch).length > 0) fillNodeDefaults(id, patch)
  }, [id, items, modelId, durationSeconds, aspectRatio, fillNodeDefaults])

  if (!data) return null
  const caps = model?.capabilities
  const issue = clipGenerationIssue(data, { models: items, failed: models.isError })
  const seconds = clipSeconds(model, data)
  const onGenerate = () => {
    if (issue || !model || projectId === null) return
    generate({ ...buildClipRequest(data, model), projectId })
  }
  const onModel = (next: string) => {
    const picked = items?.find((m) => m.id === next)
    updateNodeData(id, { modelId: next, ...(picked ? snapToModel(picked, data) : {}) })
  }
  const durations = caps?.durations ?? [data.durationSeconds]
  const ratios: readonly VideoPresetName[] = caps?.aspectRatios ?? VIDEO_PRESET_NAMES
  const modelHint = model
    ? [
        model.offline ? OFFLINE_MOTION_LABEL : null,
        caps ? capabilityText(caps) : null,
        costText(model.cost),
      ]
        .filter(Boolean)
        .join(' · ')
    : undefined
  const startLabel = images.find((i) => i.imageUrl === data.imageUrl)?.label ?? 'Start image'
  const lastLabel = images.find((i) => i.imageUrl === data.lastFrameUrl)?.label ?? 'Last frame'

  return (
    <NodeShell
      label={data.label}
      icon={VideoIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      summary={data.prompt}
      accent="bg-teal-50 text-teal-900 dark:bg-teal-950 dark:text-teal-100"
    >
      <TextField
        label="Prompt"
        rows={3}
        value={data.prompt}
        placeholder="Describe the motion: what moves, the camera"
        hint={promptHint(data.promptFromScene === 'true', feedingScenes)}
        onChange={(prompt) => updateNodeData(id, { prompt })}
      />
      <TextField
        label="Negative prompt"
        value={data.negativePrompt}
        placeholder="What to leave out"
        onChange={(negativePrompt) => updateNodeData(id, { negativePrompt })}
      />
      <GroupedSelectField
        label="Video model"
        value={data.modelId}
        groups={groups}
        placeholder={
          models.isPending
            ? 'Loading models...'
            : items?.length === 0
              ? 'No video models'
              : 'Select a model'
        }
        missingLabel="A model no longer offered"
        error={models.isError ? 'The video models could not be loaded.' : null}
        hint={modelHint}
        onChange={onModel}
      />
      {!caps || caps.imageToVideo ? (
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <SelectField
              label="Start image"
              value={data.imageUrl}
              options={imageOptions(images, data.imageUrl)}
              hint={imageHint(images, data.imageUrl)}
              onChange={(imageUrl) => updateNodeData(id, { imageUrl })}
            />
          </div>
          <Thumbnail url={data.imageUrl} alt={`Start image: ${startLabel}`} />
        </div>
      ) : (
        <p className="text-muted-foreground text-xs">
          {model?.name} makes clips from the prompt alone: it takes no start image.
        </p>
      )}
      {caps?.lastFrame ? (
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <SelectField
              label="Last frame"
              value={data.lastFrameUrl}
              options={imageOptions(images, data.lastFrameUrl)}
              hint={imageHint(images, data.lastFrameUrl)}
              onChange={(lastFrameUrl) => updateNodeData(id, { lastFrameUrl })}
            />
          </div>
          <Thumbnail url={data.lastFrameUrl} alt={`Last frame: ${lastLabel}`} />
        </div>
      ) : null}
      <div className="grid grid-cols-3 items-start gap-2">
        <SelectField
          label="Duration"
          value={String(seconds)}
          options={durations.map((d) => ({ value: String(d), label: `${secondsText(d)} s` }))}
          disabled={!caps}
          onChange={(v) => updateNodeData(id, { durationSeconds: Number(v) })}
        />
        <SelectField
          label="Aspect ratio"
          value={data.aspectRatio}
          options={ratios}
          onChange={(v) => updateNodeData(id, { aspectRatio: v as VideoPresetName })}
        />
        <TextField
          label="Seed"
          value={data.seed}
          placeholder="Random"
          error={seedIssue(data.seed)}
          onChange={(seed) => updateNodeData(id, { seed })}
        />
      </div>
      {caps?.audio ? (
        <CheckField
          label="With sound"
          checked={data.withAudio}
          onChange={(withAudio) => updateNodeData(id, { withAudio })}
        />
      ) : null}
      <GenerateButton
        stale={stale}
        label={clipButtonLabel(seconds)}
        issue={issue}
        {...button}
        offline={
          model?.offline
            ? { label: OFFLINE_MOTION_LABEL, explanation: OFFLINE_MOTION_EXPLANATION }
            : undefined
        }
        onGenerate={onGenerate}
      />
    </NodeShell>
  )
})
