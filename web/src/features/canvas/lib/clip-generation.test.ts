import { type CatalogModel, type ClipTake, generateVideoInput } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  buildClipRequest,
  CLIP_MESSAGES,
  capabilityText,
  clipButtonLabel,
  clipCredits,
  clipGenerationIssue,
  clipLengthText,
  clipSeconds,
  clipTakeLabel,
  costText,
  defaultVideoModel,
  durationsText,
  groupModelsByProvider,
  modelNameOf,
  modelOptionLabel,
  snapToModel,
  startImageRequired,
} from './clip-generation'

const ASSET = '/api/assets/abcdefghijklmnopqrstuvwxyz234567'
const LAST = '/api/assets/zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'

function model(over: Partial<CatalogModel> & { id: string }): CatalogModel {
  return {
    provider: over.id.split(':')[0]!,
    providerName: over.id.split(':')[0]!,
    name: over.id,
    kind: 'video',
    offline: false,
    cost: { credits: 2, per: 'second' },
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
      lastFrame: false,
      audio: false,
      durations: [5, 10],
      aspectRatios: ['16:9', '9:16', '1:1'],
      resolutions: ['720p'],
    },
    ...over,
  }
}

const kling = model({
  id: 'fal:fal-ai/kling-video/v2.1/standard/image-to-video',
  providerName: 'fal.ai',
  name: 'Kling 2.1',
  capabilities: {
    textToVideo: false,
    imageToVideo: true,
    lastFrame: true,
    audio: false,
    durations: [5, 10],
    aspectRatios: ['16:9', '9:16', '1:1'],
    resolutions: ['1080p'],
  },
  cost: { credits: 1.5, per: 'second' },
})
const veo = model({
  id: 'gemini:veo-3.0-generate-001',
  providerName: 'Google Gemini API',
  name: 'Veo 3',
  capabilities: {
    textToVideo: true,
    imageToVideo: true,
    lastFrame: false,
    audio: true,
    durations: [4, 6, 8],
    aspectRatios: ['16:9', '9:16'],
    resolutions: ['720p', '1080p'],
  },
  cost: { credits: 8, per: 'second' },
})
const wan = model({ id: 'fal:fal-ai/wan/v2.2', providerName: 'fal.ai', name: 'Wan 2.2' })
const draft = model({
  id: 'builtin:motion-draft',
  providerName: 'Built-in',
  name: 'Motion draft',
  offline: true,
  cost: { credits: 0, per: 'second' },
})

const node = {
  prompt: 'A lighthouse at dusk, waves rolling in',
  negativePrompt: 'blurry',
  modelId: kling.id,
  durationSeconds: 5,
  aspectRatio: '16:9' as const,
  seed: '42',
  withAudio: true,
  imageUrl: ASSET,
  lastFrameUrl: LAST,
}

describe('the model picker (issue 22 item 3)', () => {
  it('groups the catalog by provider, in the catalog’s order', () => {
    const groups = groupModelsByProvider([draft, kling, veo, wan])
    expect(groups.map((g) => [g.providerName, g.models.map((m) => m.name)])).toEqual([
      ['Built-in', ['Motion draft']],
      ['fal.ai', ['Kling 2.1', 'Wan 2.2']],
      ['Google Gemini API', ['Veo 3']],
    ])
    expect(groupModelsByProvider([])).toEqual([])
  })

  it('says briefly what each model starts from, takes and makes, and its cost', () => {
    expect(capabilityText(kling.capabilities!)).toBe('image only · last frame · 5 or 10 s')
    expect(capabilityText(veo.capabilities!)).toBe('text or image · sound · 4, 6 or 8 s')
    expect(
      capabilityText({ ...veo.capabilities!, imageToVideo: false, audio: false, durations: [6] }),
    ).toBe('text only · 6 s')
    expect(costText(kling.cost)).toBe('1.5 credits/s')
    expect(costText({ credits: 1, per: 'second' })).toBe('1 credit/s')
    expect(costText({ credits: 4, per: 'image' })).toBe('4 credits/image')
    expect(modelOptionLabel(kling)).toBe(
      'Kling 2.1 · image only · last frame · 5 or 10 s · 1.5 credits/s',
    )
    expect(modelOptionLabel(draft)).toMatch(/^Motion draft · Offline motion draft · /)
    expect(durationsText([2.5])).toBe('2.5 s')
  })

  it('starts a new node on the first model that runs at a provider', () => {
    expect(defaultVideoModel([draft, kling, veo])).toBe(kling)
    expect(defaultVideoModel([draft])).toBe(draft)
    expect(defaultVideoModel([])).toBeUndefined()
  })

  it('names the model a clip came from, or its own id when the catalog no longer has it', () => {
    expect(modelNameOf([kling], kling.id)).toBe('Kling 2.1 (fal.ai)')
    expect(modelNameOf([], 'replicate:minimax/hailuo-02')).toBe('minimax/hailuo-02')
  })
})

describe('snapping to the model', () => {
  it('snaps the duration to the model’s nearest and the aspect ratio to one it makes', () => {
    expect(snapToModel(veo, { durationSeconds: 5, aspectRatio: '1:1' })).toEqual({
      durationSeconds: 4,
      aspectRatio: '16:9',
    })
    expect(snapToModel(veo, { durationSeconds: 7.5, aspectRatio: '9:16' })).toEqual({
      durationSeconds: 8,
    })
    expect(snapToModel(kling, { durationSeconds: 10, aspectRatio: '1:1' })).toEqual({})
    expect(clipSeconds(veo, { durationSeconds: 20 })).toBe(8)
    expect(clipSeconds(undefined, { durationSeconds: 20 })).toBe(20)
  })

  it('prices and labels the button by the snapped length', () => {
    expect(clipCredits(kling, { durationSeconds: 5 })).toBe(8) // 7.5 rounded up
    expect(clipCredits(veo, { durationSeconds: 5 })).toBe(32) // 4 s x 8
    expect(clipButtonLabel(5)).toBe('Generate clip · 5 s')
  })
})

describe('clipGenerationIssue', () => {
  const ready = { models: [kling, veo, draft], failed: false }

  it('needs a prompt, the models, a model the catalog offers, and a seed in range', () => {
    expect(clipGenerationIssue({ ...node, prompt: '  ' }, ready)).toBe(CLIP_MESSAGES.promptRequired)
    expect(clipGenerationIssue(node, { models: undefined, failed: false })).toBe(
      CLIP_MESSAGES.modelsLoading,
    )
    expect(clipGenerationIssue(node, { models: undefined, failed: true })).toBe(
      CLIP_MESSAGES.modelsFailed,
    )
    expect(clipGenerationIssue({ ...node, modelId: '' }, ready)).toBe(CLIP_MESSAGES.modelRequired)
    expect(clipGenerationIssue({ ...node, modelId: 'fal:gone' }, ready)).toBe(
      CLIP_MESSAGES.modelGone,
    )
    expect(clipGenerationIssue({ ...node, seed: '-1' }, ready)).toMatch(/^Seed must be/)
    expect(clipGenerationIssue(node, ready)).toBeNull()
  })

  it('needs a start image only for a model that starts from one, and only an app asset', () => {
    expect(clipGenerationIssue({ ...node, imageUrl: '' }, ready)).toBe(startImageRequired(kling))
    expect(clipGenerationIssue({ ...node, modelId: veo.id, imageUrl: '' }, ready)).toBeNull()
    expect(clipGenerationIssue({ ...node, imageUrl: 'http://127.0.0.1:9/secret.png' }, ready)).toBe(
      CLIP_MESSAGES.startImageNotAsset,
    )
  })
})

describe('buildClipRequest', () => {
  it('sends what the model takes, snapped, and passes the shared schema', () => {
    const request = buildClipRequest(node, kling)
    expect(request).toEqual({
      modelId: kling.id,
      prompt: node.prompt,
      negativePrompt: 'blurry',
      imageUrl: ASSET,
      lastFrameUrl: LAST,
      durationSeconds: 5,
      aspectRatio: '16:9',
      seed: 42,
      withAudio: false,
    })
    // The node adds its project (and itself) when it sends it.
    expect(generateVideoInput.safeParse({ ...request, projectId: 12 }).success).toBe(true)
  })

  it('leaves out a last frame, a start image or sound the model does not take', () => {
    const request = buildClipRequest({ ...node, durationSeconds: 5, aspectRatio: '1:1' }, veo)
    expect(request).not.toHaveProperty('lastFrameUrl')
    expect(request).toMatchObject({
      imageUrl: ASSET,
      durationSeconds: 4,
      aspectRatio: '16:9',
      withAudio: true,
    })
    const textOnly = model({
      id: 'replicate:minimax/video-01',
      capabilities: { ...veo.capabilities!, imageToVideo: false },
    })
    expect(buildClipRequest(node, textOnly)).not.toHaveProperty('imageUrl')
    // Never an address that is not an app asset.
    expect(buildClipRequest({ ...node, imageUrl: 'file:///etc/passwd' }, veo)).not.toHaveProperty(
      'imageUrl',
    )
  })

  it('sends a random seed when the node has none', () => {
    expect(buildClipRequest({ ...node, seed: '' }, kling, () => 0.5).seed).toBe(1073741824)
  })
})

describe('takes', () => {
  const take: ClipTake = {
    videoUrl: ASSET,
    posterUrl: LAST,
    durationMs: 4_540,
    hasAudio: false,
    modelId: kling.id,
    prompt: 'x',
    seed: 1,
    createdAt: 'not a time',
  }

  it('labels a take by its number (newest first) and length', () => {
    expect(clipTakeLabel(take, 0, 3)).toBe('Take 3 · 0:04.5')
    expect(clipTakeLabel({ ...take, durationMs: 65_000 }, 2, 3)).toBe('Take 1 · 1:05')
    expect(clipLengthText(5_000)).toBe('0:05')
  })
})
