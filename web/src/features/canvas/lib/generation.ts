import type { ImageModel } from '@reelgraph/shared'
import { ApiError } from '../../../lib/api-client'
import type { JobAction } from './job-state'

/**
 * What a generation does on the canvas, as pure functions: the requests built from a
 * node's data, the seed, the first model, and the spec §8 alert for a failure. Where the
 * result nodes go (spec §4, §9) is shared's `placement`: the job worker writes them
 * (issue 12), and "Create image generator" uses its `imageGeneratorForScene`.
 */

/** The words of the spec §8 alerts for each action. */
const ACTION_WORD: Record<JobAction, string> = {
  script: 'script',
  scenes: 'scenes',
  image: 'image',
  video: 'video',
  clip: 'clip',
}

/**
 * The spec §8 alert for a failed generation: with a server response "Failed to generate
 * script: <server message or Unknown error>"; without one (network failure, or anything
 * that is not a server answer) "Error generating script. Please try again.".
 */
export function generationFailureMessage(action: JobAction, error: unknown): string {
  const word = ACTION_WORD[action]
  if (error instanceof ApiError) {
    const message = error.serverMessage.trim() || 'Unknown error'
    return `Failed to generate ${word}: ${message}`
  }
  return `Error generating ${word}. Please try again.`
}

/** "Generate Script · 1 credit" (the cost is left out while unknown). */
export function buttonLabelWithCost(label: string, cost: number | undefined): string {
  if (cost === undefined) return label
  return `${label} · ${cost} ${cost === 1 ? 'credit' : 'credits'}`
}

/**
 * Why a Generate button with this cost cannot be paid for: "Not enough credits: this needs
 * 2 credits; you have 0." when the balance is below the cost, else null (also while the
 * balance or the cost is unknown: the server still refuses a short balance, 402).
 * @see issue 14 item 8
 */
export function creditShortfall(balance: number | null, cost: number | undefined): string | null {
  if (balance === null || cost === undefined || balance >= cost) return null
  return `Not enough credits: this needs ${cost} ${cost === 1 ? 'credit' : 'credits'}; you have ${balance}.`
}

// The requests a node sends are shared's (`node-requests.ts`): the MCP server's run_node
// builds the same ones (issue 41 item 2).
export {
  buildImageRequest,
  buildScenesRequest,
  buildScriptRequest,
  chooseSeed,
  sceneCountOf,
} from '@reelgraph/shared'

/**
 * The first model in the list and its first version (spec §4: auto-selected for the image
 * generator), as the node stores them (strings); null when there is none.
 */
export function firstModelSelection(
  models: readonly ImageModel[] | undefined,
): { modelId: string; modelVersionId: string } | null {
  const model = models?.[0]
  const version = model?.modelVersions[0]
  if (!model || !version) return null
  return { modelId: String(model.id), modelVersionId: String(version.id) }
}

/** The version to use when the model changes: its first version ('' when it has none). */
export function firstVersionOf(models: readonly ImageModel[] | undefined, modelId: string): string {
  const model = models?.find((m) => String(m.id) === modelId)
  const version = model?.modelVersions[0]
  return version ? String(version.id) : ''
}

/** The versions of a model as select options (label: the version's name, else its id). */
export function versionOptionsOf(
  models: readonly ImageModel[] | undefined,
  modelId: string,
): { value: string; label: string }[] {
  const model = models?.find((m) => String(m.id) === modelId)
  return (model?.modelVersions ?? []).map((v) => ({
    value: String(v.id),
    label: v.name?.trim() || String(v.id),
  }))
}

/** The URL that downloads an image as generated-image.jpg (spec §9). */
export function downloadUrl(imageUrl: string): string {
  return `${imageUrl}${imageUrl.includes('?') ? '&' : '?'}download=1`
}
