import type { ClipProgressReport, ClipRequest, ImageBytes } from '../../catalog/types.ts'
import type { ModelDefinition } from '../../catalog/model-definition.ts'
import { solidPng } from '../../providers/testing/images.ts'

/** A clip request for `definition`'s model, as the clip job kind makes one. */
export function clipRequest(
  definition: ModelDefinition,
  overrides: Partial<ClipRequest> = {},
): ClipRequest {
  return {
    model: definition.model,
    prompt: 'A lighthouse at dusk, waves rolling in',
    negativePrompt: '',
    durationSeconds: definition.model.capabilities?.durations[0] ?? 5,
    aspectRatio: '16:9',
    resolution: definition.model.capabilities?.resolutions[0] ?? '720p',
    seed: 1234,
    withAudio: false,
    ...overrides,
  }
}

/** A start image as the job kind reads it from an asset. */
export async function startImage(width = 320, height = 180): Promise<ImageBytes> {
  return { bytes: await solidPng(width, height), mimeType: 'image/png' }
}

/** Collects a provider's progress reports. */
export function progressLog() {
  const reports: ClipProgressReport[] = []
  return { reports, onProgress: (report: ClipProgressReport) => reports.push(report) }
}

/** The definition of `id` in a provider's curated list (fails loudly when it is gone). */
export function modelOf(list: readonly ModelDefinition[], id: string): ModelDefinition {
  const found = list.find((d) => d.model.id === id)
  if (!found) throw new Error(`no model ${id}`)
  return found
}
