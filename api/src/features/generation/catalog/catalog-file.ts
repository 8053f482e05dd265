import { readFileSync } from 'node:fs'
import {
  MODEL_ID_PATTERN,
  MODEL_KINDS,
  modelCostSchema,
  videoCapabilitiesSchema,
} from '@reelgraph/shared'
import { z } from 'zod'
import { inputMappingSchema } from './input-mapping.ts'

/**
 * The operator's catalog file (`MODEL_CATALOG_FILE`, issue 22 item 1): JSON that adds models
 * with their mapping and changes what models cost. Checked at boot; a mistake stops the
 * server with the file, the place and what is wrong. The README shows an example.
 */

const modelId = z
  .string()
  .regex(
    MODEL_ID_PATTERN,
    'a model id is `<provider>:<the provider’s model id>`, e.g. fal:fal-ai/flux/dev',
  )

/** One model the operator adds (or whose curated entry they replace, by its id). */
export const fileModelSchema = z
  .object({
    id: modelId,
    name: z.string().min(1).max(120),
    kind: z.enum(MODEL_KINDS),
    /** Video models: what it takes and makes. */
    capabilities: videoCapabilitiesSchema.optional(),
    cost: modelCostSchema,
    /** How Reelgraph's request becomes its input (README "Model catalog"). */
    input: inputMappingSchema.default({ prompt: 'prompt', fixed: {} }),
  })
  .strict()
  .superRefine((model, ctx) => {
    if (model.kind === 'video' && !model.capabilities) {
      ctx.addIssue({
        code: 'custom',
        path: ['capabilities'],
        message: 'a video model needs its capabilities',
      })
    }
    if (model.kind === 'image' && model.capabilities) {
      ctx.addIssue({
        code: 'custom',
        path: ['capabilities'],
        message: 'an image model has no capabilities',
      })
    }
  })
export type FileModel = z.output<typeof fileModelSchema>

export const catalogFileSchema = z
  .object({
    /** Models added, or replacing a curated one of the same id. */
    models: z.array(fileModelSchema).default([]),
    /** New prices by model id: `{ "fal:fal-ai/veo3/fast": { "credits": 4, "per": "second" } }`. */
    costs: z.record(modelId, modelCostSchema).default({}),
  })
  .strict()
export type CatalogFile = z.output<typeof catalogFileSchema>

/** An empty file: no models added, no costs changed. */
export const NO_CATALOG_FILE: CatalogFile = { models: [], costs: {} }

/**
 * Reads and checks the catalog file at `path`; no path is no file.
 * @throws Error `MODEL_CATALOG_FILE (<path>): <where>: <what>` for a file that cannot be read,
 *   is not JSON, or does not fit the format (every problem listed).
 */
export function loadCatalogFile(path: string | undefined): CatalogFile {
  if (!path) return NO_CATALOG_FILE
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new Error(`MODEL_CATALOG_FILE (${path}) cannot be read: ${(error as Error).message}`, {
      cause: error,
    })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`MODEL_CATALOG_FILE (${path}) is not JSON: ${(error as Error).message}`, {
      cause: error,
    })
  }
  return parseCatalogFile(json, path)
}

/**
 * Checks a parsed catalog file.
 * @throws Error listing every problem with its place (`models.2.input.duration`).
 */
export function parseCatalogFile(json: unknown, path = 'the catalog file'): CatalogFile {
  const parsed = catalogFileSchema.safeParse(json)
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `  ${i.path.join('.') || '(the file)'}: ${i.message}`,
    )
    throw new Error(`MODEL_CATALOG_FILE (${path}) is not valid:\n${problems.join('\n')}`)
  }
  const seen = new Set<string>()
  for (const model of parsed.data.models) {
    if (seen.has(model.id)) {
      throw new Error(`MODEL_CATALOG_FILE (${path}) lists ${model.id} twice.`)
    }
    seen.add(model.id)
  }
  return parsed.data
}
