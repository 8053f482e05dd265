import {
  GENERATION_MESSAGES,
  IMAGE_GUIDANCE_MAX,
  IMAGE_GUIDANCE_MIN,
  IMAGE_GUIDANCE_STEP,
  IMAGE_SEED_MAX,
  IMAGE_SIZE_MAX_PX,
  IMAGE_SIZE_MIN_PX,
  IMAGE_SIZE_STEP_PX,
  IMAGE_STEPS_MAX,
  IMAGE_STEPS_MIN,
} from '@reelgraph/shared'

/*
 * The generation rules of spec §5, as messages a node shows next to its button (shared's
 * GENERATION_MESSAGES, which the API answers with too). Each check returns the message, or
 * null when the input is fine.
 */

/** Generate Script needs a topic (spec §5 Script generation). */
export function scriptGenerationIssue(data: { topic: string }): string | null {
  return data.topic.trim() === '' ? GENERATION_MESSAGES.topicRequired : null
}

/** Generate Scenes needs content (spec §5 Scene generation). */
export function sceneGenerationIssue(data: { content: string }): string | null {
  return data.content.trim() === '' ? GENERATION_MESSAGES.contentRequired : null
}

/**
 * Generate Image needs a prompt, then a model (spec §5 Image generation): a model and,
 * when the node tracks one, its version.
 */
export function imageGenerationIssue(data: {
  prompt: string
  modelId: string
  modelVersionId?: string
}): string | null {
  if (data.prompt.trim() === '') return GENERATION_MESSAGES.promptRequired
  if (data.modelId.trim() === '' || data.modelVersionId?.trim() === '')
    return GENERATION_MESSAGES.modelRequired
  return null
}

function isStepOf(value: number, step: number, from: number): boolean {
  const k = (value - from) / step
  return Math.abs(k - Math.round(k)) < 1e-9
}

/** Width or height: 64 to 2048 in steps of 8 (spec §5). */
export function imageSizeIssue(value: number, what: 'Width' | 'Height'): string | null {
  if (
    !Number.isInteger(value) ||
    value < IMAGE_SIZE_MIN_PX ||
    value > IMAGE_SIZE_MAX_PX ||
    value % IMAGE_SIZE_STEP_PX !== 0
  ) {
    return `${what} must be ${IMAGE_SIZE_MIN_PX} to ${IMAGE_SIZE_MAX_PX} in steps of ${IMAGE_SIZE_STEP_PX}`
  }
  return null
}

/** Steps: a whole number from 1 to 100 (spec §5). */
export function stepsIssue(value: number): string | null {
  if (!Number.isInteger(value) || value < IMAGE_STEPS_MIN || value > IMAGE_STEPS_MAX) {
    return `Steps must be a whole number from ${IMAGE_STEPS_MIN} to ${IMAGE_STEPS_MAX}`
  }
  return null
}

/** Guidance scale: 1 to 20 in steps of 0.1 (spec §5). */
export function guidanceIssue(value: number): string | null {
  if (
    !Number.isFinite(value) ||
    value < IMAGE_GUIDANCE_MIN ||
    value > IMAGE_GUIDANCE_MAX ||
    !isStepOf(value, IMAGE_GUIDANCE_STEP, 0)
  ) {
    return `Guidance scale must be ${IMAGE_GUIDANCE_MIN} to ${IMAGE_GUIDANCE_MAX} in steps of ${IMAGE_GUIDANCE_STEP}`
  }
  return null
}

/** Seed: optional; when given, a whole number from 0 to 2147483647 (spec §5, §9). */
export function seedIssue(value: string): string | null {
  const v = value.trim()
  if (v === '') return null
  if (!/^\d+$/.test(v) || Number(v) > IMAGE_SEED_MAX) {
    return `Seed must be a whole number from 0 to ${IMAGE_SEED_MAX}, or empty for a random one`
  }
  return null
}

/** A number field's range (what its input offers) and its check. */
export interface NumberRule {
  min: number
  max: number
  step: number
  validate: (value: number) => string | null
}

/** The image generator's number fields, with the spec §5 ranges and their checks. */
export const IMAGE_NUMBER_RULES = {
  width: {
    min: IMAGE_SIZE_MIN_PX,
    max: IMAGE_SIZE_MAX_PX,
    step: IMAGE_SIZE_STEP_PX,
    validate: (value) => imageSizeIssue(value, 'Width'),
  },
  height: {
    min: IMAGE_SIZE_MIN_PX,
    max: IMAGE_SIZE_MAX_PX,
    step: IMAGE_SIZE_STEP_PX,
    validate: (value) => imageSizeIssue(value, 'Height'),
  },
  steps: { min: IMAGE_STEPS_MIN, max: IMAGE_STEPS_MAX, step: 1, validate: stepsIssue },
  guidance: {
    min: IMAGE_GUIDANCE_MIN,
    max: IMAGE_GUIDANCE_MAX,
    step: IMAGE_GUIDANCE_STEP,
    validate: guidanceIssue,
  },
} satisfies Record<string, NumberRule>
