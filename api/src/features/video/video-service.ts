import {
  createSpeechProvider,
  narrationKey,
  SPEECH_TEXT_MAX_CHARS,
  SpeechError,
} from '@reelgraph/media'
import {
  collectVideoInputs,
  docToGraph,
  effectiveTimeline,
  filmHash,
  getTimelinesMap,
  storedTimelineOf,
  orderAfter,
  generateScriptInput,
  IMAGE_SEED_MAX,
  makeVideoCost,
  type MakeVideoInput,
  type NarrationPreviewInput,
  readNodeData,
  type RenderVideoInput,
  TARGET_SECONDS_DEFAULT,
  formatTargetLength,
  targetLengthProblem,
  type VoicesOutput,
  videoRenderCost,
} from '@reelgraph/shared'
import { musicChosen } from './film-music.ts'
import type { AppDeps } from '../../app-env.ts'
import { NARRATION_PREVIEW_WAIT_MS } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'
import { randomSeed } from '../generation/generation-service.ts'
import { resultOf, submitGeneration, waitForJob } from '../jobs/job-service.ts'
import type { JobRow } from '../jobs/job-store.ts'
import { requireProjectRole } from '../access/project-access.ts'
import type { MakeVideoJobInput } from './make-video-job.ts'
import { requireVideoModel } from '../generation/clip-job.ts'
import { cachedNarrationKeys, isSpoken, readCachedNarration } from './narration-cache.ts'
import { speechSettingsOf } from './render-scenes.ts'
import type { VideoJobInput } from './video-job-input.ts'

/** A Video node's render as it would be submitted now, and what it costs. */
export interface VideoRenderPlan {
  input: VideoJobInput
  /** COST_VIDEO plus COST_VOICE per narration to speak. */
  credits: number
  voices: { total: number; reused: number }
}

/**
 * What rendering Video node `nodeId` would render and cost now (issue 13 item 4; issue 21
 * item 4): its scenes collected from the live document on the server (scenes connected to
 * it, or a connected text node's scenes, in `sceneNumber` order, each with its narration and
 * image), and COST_VIDEO plus COST_VOICE for each narration the narration cache lacks.
 * @throws AppError 404/403 for a project the user may not edit (`needed`); 404 for a node
 *   that is no Video node; 400 without scenes, with scenes that have no image (`fields`: scene
 *   node id -> what is missing) or a narration too long to speak.
 */
export async function planVideoRender(
  deps: Pick<AppDeps, 'db' | 'env' | 'documents'>,
  request: RenderVideoInput & { userId: number; needed: 'member' | 'editor' },
): Promise<VideoRenderPlan> {
  const { userId, projectId, nodeId, needed } = request
  await requireProjectRole(deps.db, { userId, projectId, needed })
  const { graph, timeline } = await deps.documents.transact(projectId, (doc) => {
    const stored = storedTimelineOf(getTimelinesMap(doc).entries(), nodeId)
    return {
      graph: docToGraph(doc),
      // Issue 24 item 1: the render takes what the timeline says (none yet: today's film).
      timeline: stored ? { ...stored, musicChosen: musicChosen(doc, nodeId) } : null,
    }
  })
  const inputs = collectVideoInputs(graph, nodeId)
  if (!inputs) throw new AppError('NOT_FOUND', 'This Video node does not exist.')
  if (inputs.scenes.length === 0) {
    throw new AppError(
      'BAD_REQUEST',
      'Connect scenes, or a text node with scenes, to the Video node first.',
    )
  }
  if (inputs.missing.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `Scenes without an image: ${inputs.missing.map((s) => s.sceneNumber).join(', ')}. Generate an image for each (scene -> image generator -> image).`,
      {
        fields: Object.fromEntries(
          inputs.missing.map((s) => [s.nodeId, `Scene ${s.sceneNumber} has no image.`]),
        ),
      },
    )
  }
  if (timeline) {
    const film = effectiveTimeline(timeline, inputs.scenes, orderAfter)
    if (film.cuts.length === 0 && timeline.settings.titleMs <= 0 && timeline.settings.endMs <= 0) {
      throw new AppError(
        'BAD_REQUEST',
        'Every scene was removed from the timeline. Put one back on the timeline to render.',
      )
    }
  }
  const tooLong = inputs.scenes.find((s) => s.narration.length > SPEECH_TEXT_MAX_CHARS)
  if (tooLong) {
    throw new AppError(
      'BAD_REQUEST',
      `The narration of scene ${tooLong.sceneNumber} is longer than ${SPEECH_TEXT_MAX_CHARS} characters.`,
    )
  }
  const speech = createSpeechProvider(speechSettingsOf(deps.env))
  const voice = inputs.settings.voice || undefined
  const spoken = inputs.scenes.filter((s) => isSpoken(s.narration))
  const keys = spoken.map((s) => narrationKey(speech, { text: s.narration, voice }))
  const cached = await cachedNarrationKeys(deps.db, { projectId, keys })
  const reused = keys.filter((key) => cached.has(key)).length
  const voicesCharged = spoken.length - reused
  return {
    input: {
      projectId,
      nodeId,
      ...inputs.settings,
      scenes: inputs.scenes,
      inputHash: filmHash(inputs.hash, timeline),
      voicesCharged,
      timeline,
      ...(request.captions ? { captions: request.captions } : {}),
    },
    credits: videoRenderCost(deps.env.costs, voicesCharged),
    voices: { total: spoken.length, reused },
  }
}

/**
 * Submits the render of Video node `nodeId` (issue 13 item 4) as {@link planVideoRender}
 * plans it: a `video` job charged its credits.
 * @throws AppError as {@link planVideoRender} (the user must be an editor); 402 when the user
 *   cannot pay.
 */
export async function submitVideoRender(
  deps: Pick<AppDeps, 'db' | 'env' | 'jobs' | 'documents' | 'tasks'>,
  request: RenderVideoInput & { userId: number },
): Promise<JobRow> {
  const { userId, projectId, nodeId } = request
  const plan = await planVideoRender(deps, { ...request, needed: 'editor' })
  return submitGeneration(deps, {
    userId,
    kind: 'video',
    input: plan.input,
    projectId,
    nodeId,
    cost: plan.credits,
    description: `Video: ${plan.input.scenes.length} scenes`,
  })
}

/**
 * Submits "Make video" from Script Generator `nodeId` (issue 13 item 6): checks the role,
 * reads the generator's topic, style, tone, format and target length (issue 42 item 1: the
 * call's `targetSeconds` wins over the node's) from the live document, and submits one
 * `make-video` job charged the whole chain at once (`makeVideoCost`: script, scenes, an
 * image and a narrated scene per scene, with `animate` a clip per scene, the render). The
 * script is written for the length and the scene count. Issue 42 item 2: `sceneImageUrl` (an
 * image asset of this project, checked by its row: nothing is fetched) is every scene's
 * picture, no image generated or charged; `character` is added to every scene's visuals;
 * `voice` is the made Video node's.
 * @throws AppError 404/403 for a project the user may not edit; 404 for a node that is no
 *   Script Generator; 400 when its topic is missing (the spec §5 message), a field is
 *   invalid, the length has no room for the scenes (`targetLengthProblem`), or the model to
 *   animate with is not listed, does not start from an image or does not make the format,
 *   or `sceneImageUrl` is not an image of this project;
 *   402 when the user cannot pay for the whole chain (nothing is charged).
 */
export async function submitMakeVideo(
  deps: Pick<AppDeps, 'db' | 'env' | 'jobs' | 'documents' | 'tasks' | 'catalog'>,
  request: MakeVideoInput & { userId: number },
): Promise<JobRow> {
  const { userId, projectId, nodeId, sceneCount, preset } = request
  await requireProjectRole(deps.db, { userId, projectId, needed: 'editor' })
  const animate = request.animate
    ? requireVideoModel(deps.catalog, request.animate.modelId).model
    : null
  if (animate && !animate.capabilities?.imageToVideo) {
    throw new AppError(
      'BAD_REQUEST',
      `${animate.name} does not start from an image, so it cannot animate the scenes' pictures.`,
    )
  }
  if (animate && !animate.capabilities?.aspectRatios.includes(preset)) {
    throw new AppError('BAD_REQUEST', `${animate.name} makes no ${preset} clips.`)
  }
  if (request.sceneImageUrl) {
    // Issue 42 item 2: an image of this very project, checked by its row; nothing is fetched.
    const assetId = request.sceneImageUrl.slice('/api/assets/'.length)
    const image = await deps.db
      .selectFrom('assets')
      .select('id')
      .where('id', '=', assetId)
      .where('project_id', '=', projectId)
      .where('mime_type', 'like', 'image/%')
      .executeTakeFirst()
    if (!image) {
      throw new AppError(
        'BAD_REQUEST',
        'The picture for every scene must be an image of this project. Upload it to this project first.',
        { fields: { sceneImageUrl: 'Not an image of this project.' } },
      )
    }
  }
  const graph = await deps.documents.transact(projectId, (doc) => docToGraph(doc))
  const generator = graph.nodes.find((n) => n.id === nodeId)
  if (generator?.type !== 'script-generator') {
    throw new AppError('NOT_FOUND', 'This Script Generator does not exist.')
  }
  const fields = generateScriptInput.safeParse(readNodeData('script-generator', generator.data))
  if (!fields.success) {
    throw new AppError('BAD_REQUEST', fields.error.issues[0]?.message ?? 'Check the script fields.')
  }
  const { topic, style, tone, format } = fields.data
  const targetSeconds = request.targetSeconds ?? fields.data.targetSeconds ?? TARGET_SECONDS_DEFAULT
  const lengthProblem = targetLengthProblem({ targetSeconds, sceneCount })
  if (lengthProblem) throw new AppError('BAD_REQUEST', lengthProblem)
  const input: MakeVideoJobInput = {
    projectId,
    nodeId,
    sceneCount,
    preset,
    targetSeconds,
    // One seed for the chain's drafts, so a retry writes the same text (issue 14 item 10);
    // written for the length, its pauses counted for the scenes (issue 42 item 1).
    script: {
      topic,
      style,
      tone,
      format,
      targetSeconds,
      sceneCount,
      seed: randomSeed(IMAGE_SEED_MAX),
    },
    ...(request.animate ? { animate: request.animate } : {}),
    ...(request.captions ? { captions: request.captions } : {}),
    ...(request.sceneImageUrl ? { sceneImageUrl: request.sceneImageUrl } : {}),
    ...(request.character ? { character: request.character } : {}),
    ...(request.voice ? { voice: request.voice } : {}),
  }
  return submitGeneration(deps, {
    userId,
    kind: 'make-video',
    input,
    projectId,
    nodeId,
    cost: makeVideoCost(deps.env.costs, sceneCount, animate, {
      sceneImage: request.sceneImageUrl !== undefined,
    }),
    description: `Make video: ${topic.slice(0, 80)}, ${formatTargetLength(targetSeconds)}, ${sceneCount} ${sceneCount === 1 ? 'scene' : 'scenes'}`,
  })
}

/**
 * Speaks scene `nodeId`'s narration for its play button (issue 13 item 5), with the speech
 * provider the renders use, through the project's narration cache (issue 21 item 4): a
 * narration spoken before answers at once, a new one is spoken by a `narration` job (on the
 * workers) into the cache, where the next render finds it. Free: it is a preview, limited
 * per user (`narrationPreviewsPerUser`).
 * @returns the WAV (PCM, mono, 16-bit) and its length in ms.
 * @throws AppError 404 for a project the user is not a member of or a node that is no
 *   scene; 400 when the scene has no narration, it is too long, or the voice does not exist;
 *   429 past the limit; 502 when the speech provider fails; 504 when it takes longer than
 *   NARRATION_PREVIEW_WAIT_MS.
 */
export async function previewSceneNarration(
  deps: Pick<AppDeps, 'db' | 'env' | 'documents' | 'rateLimits' | 'assets' | 'jobs' | 'tasks'>,
  request: NarrationPreviewInput & { userId: number },
): Promise<{ wav: Uint8Array; durationMs: number }> {
  const { userId, projectId, nodeId } = request
  const voice = request.voice ?? ''
  await requireProjectRole(deps.db, { userId, projectId, needed: 'member' })
  await deps.rateLimits.narrationPreviewsPerUser.consume(
    String(userId),
    'Too many narration previews. Please wait a minute and try again.',
  )
  const graph = await deps.documents.transact(projectId, (doc) => docToGraph(doc))
  const scene = graph.nodes.find((n) => n.id === nodeId)
  if (scene?.type !== 'scene') throw new AppError('NOT_FOUND', 'This scene does not exist.')
  // The exact text a render speaks, so both find one narration in the cache.
  const text = readNodeData('scene', scene.data).narration
  if (!isSpoken(text)) {
    throw new AppError(
      'BAD_REQUEST',
      'This scene has no narration yet. Write what the narrator says first.',
    )
  }
  if (text.length > SPEECH_TEXT_MAX_CHARS) {
    throw new AppError(
      'BAD_REQUEST',
      `The narration is longer than ${SPEECH_TEXT_MAX_CHARS} characters. Shorten it to preview it.`,
    )
  }
  const speech = createSpeechProvider(speechSettingsOf(deps.env))
  const key = narrationKey(speech, { text, voice: voice || undefined })
  const cached = await readCachedNarration(deps, { projectId, key })
  if (cached) return cached
  const job = await submitGeneration(deps, {
    userId,
    kind: 'narration',
    input: { projectId, text, voice },
    cost: 0,
    description: `Narration preview of scene ${readNodeData('scene', scene.data).sceneNumber}`,
  })
  const row = await waitForJob(deps, job, NARRATION_PREVIEW_WAIT_MS)
  if (row.status === 'queued' || row.status === 'running') {
    throw new AppError('PROVIDER_TIMEOUT', 'The voice is taking long to make. Please try again.')
  }
  resultOf(row)
  const spoken = await readCachedNarration(deps, { projectId, key })
  if (!spoken)
    throw new AppError('PROVIDER_ERROR', 'The voice could not be made. Please try again.')
  return spoken
}

/**
 * The narration voices of the active speech provider (issue 13 item 1: a voice list per
 * provider), for the Video node's voice picker, sorted by name with the default first.
 * @throws AppError 502 when the provider cannot list them.
 */
export async function listNarrationVoices(
  deps: Pick<AppDeps, 'env'>,
  signal: AbortSignal,
): Promise<VoicesOutput> {
  const provider = createSpeechProvider(speechSettingsOf(deps.env))
  try {
    const voices = await provider.listVoices(signal)
    const sorted = [...voices].sort(
      (a, b) =>
        Number(b.id === provider.defaultVoice) - Number(a.id === provider.defaultVoice) ||
        a.name.localeCompare(b.name),
    )
    return {
      provider: provider.info,
      defaultVoice: provider.defaultVoice,
      voices: sorted.map((v) => ({
        id: v.id,
        name: v.name,
        ...(v.language ? { language: v.language } : {}),
      })),
    }
  } catch (err) {
    if (err instanceof SpeechError) {
      throw new AppError('PROVIDER_ERROR', `The voices could not be listed: ${err.message}`)
    }
    throw err
  }
}
