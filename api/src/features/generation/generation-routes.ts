import {
  generateImageInput,
  generateImageOutput,
  generateScenesInput,
  generateScenesOutput,
  generateScriptInput,
  generateScriptOutput,
  IMAGE_SEED_MAX,
  modelsOutput,
  modelsQuery,
  providersOutput,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth } from '../../middleware/session.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import { requireProjectRole } from '../projects/project-access.ts'
import { chargeAndRun, randomSeed } from './generation-service.ts'
import { ProviderError } from './providers/types.ts'

const TAG = 'Generation'
const IDEMPOTENCY_HEADER = 'idempotency-key'

/**
 * `/api/ai/*`: providers, scripts and scenes (spec §7; issue 4 item 3).
 */
export const aiRoutes = new Hono<AppEnv>()
  .get(
    '/providers',
    docs({
      summary: 'The active AI providers and what each action costs',
      tag: TAG,
      response: providersOutput,
    }),
    (c) => {
      requireAuth(c)
      const { ai, env } = c.var.deps
      return c.json({ text: ai.text.info, image: ai.image.info, costs: env.costs })
    },
  )
  .post(
    '/generate-script',
    docs({
      summary: 'Write a script from a topic (charged)',
      tag: TAG,
      response: generateScriptOutput,
    }),
    validate('json', generateScriptInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      const { ai, env } = c.var.deps
      const script = await chargeAndRun(
        c.var.deps,
        c.var.logger,
        {
          userId: user.id,
          action: 'script',
          description: `Script: ${input.topic.slice(0, 80)}`,
          idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
          timeoutMs: env.AI_TEXT_TIMEOUT_MS,
        },
        (signal) => ai.text.generateScript(input, signal),
      )
      return c.json({ script })
    },
  )
  .post(
    '/generate-scenes',
    docs({
      summary: 'Split a script into scenes (charged)',
      tag: TAG,
      response: generateScenesOutput,
    }),
    validate('json', generateScenesInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      const { ai, env } = c.var.deps
      const scenes = await chargeAndRun(
        c.var.deps,
        c.var.logger,
        {
          userId: user.id,
          action: 'scenes',
          description: `${input.sceneCount} scenes`,
          idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
          timeoutMs: env.AI_TEXT_TIMEOUT_MS,
        },
        async (signal) => {
          const scenes = await ai.text.generateScenes(input, signal)
          if (scenes.length !== input.sceneCount) {
            throw new ProviderError(
              'malformed',
              `The AI provider returned ${scenes.length} scenes instead of ${input.sceneCount}.`,
            )
          }
          return scenes
        },
      )
      return c.json({ scenes })
    },
  )

/**
 * `/api/csas/*`: image models and image generation (spec §7; issue 4 item 3).
 */
export const imageRoutes = new Hono<AppEnv>()
  .get(
    '/models',
    docs({ summary: 'Image models with their versions', tag: TAG, response: modelsOutput }),
    validate('query', modelsQuery),
    async (c) => {
      requireAuth(c)
      const { limit } = c.req.valid('query')
      const { ai, env } = c.var.deps
      try {
        const items = await ai.image.listModels(limit, AbortSignal.timeout(env.AI_TEXT_TIMEOUT_MS))
        return c.json({ items: items.slice(0, limit) })
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err
        c.var.logger.warn({ err }, 'listing image models failed')
        throw new AppError(
          err.kind === 'timeout' ? 'PROVIDER_TIMEOUT' : 'PROVIDER_ERROR',
          `The image models could not be loaded: ${err.message}`,
          { cause: err },
        )
      }
    },
  )
  .post(
    '/generate-image',
    docs({
      summary: 'Generate an image into a project (charged; owner or editor)',
      tag: TAG,
      response: generateImageOutput,
    }),
    validate('json', generateImageInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      const { ai, env, db, assets } = c.var.deps
      // Into a project the user may edit (owner or editor, issue 6): checked before charging;
      // the credits are the clicking user's.
      await requireProjectRole(db, user.id, input.projectId, 'editor')
      const seed = input.seed ?? randomSeed(IMAGE_SEED_MAX)
      const result = await chargeAndRun(
        c.var.deps,
        c.var.logger,
        {
          userId: user.id,
          action: 'image',
          description: `Image ${input.width}x${input.height}`,
          idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
          timeoutMs: env.AI_IMAGE_TIMEOUT_MS,
        },
        async (signal) => {
          const image = await ai.image.generateImage({ ...input, seed }, signal)
          return storeGeneratedImage(db, assets, {
            userId: user.id,
            projectId: input.projectId,
            image,
          })
        },
      )
      return c.json({ imageUrl: result.url, assetId: result.assetId, seed })
    },
  )
