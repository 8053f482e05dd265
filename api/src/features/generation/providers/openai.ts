import {
  formatTargetLength,
  type GenerateImageRequest,
  type GenerateScriptInput,
  type ImageModel,
  narrationBudget,
  type Scene,
  TARGET_SECONDS_DEFAULT,
} from '@reelgraph/shared'
import OpenAI from 'openai'
import { zodResponseFormat } from 'openai/helpers/zod'
import { z } from 'zod'
import { outboundPolicy, type OutboundSettings } from '../../../lib/outbound/guarded-fetch.ts'
import { malformed, toProviderError, upstreamStatus } from './errors.ts'
import { fetchBytes, imageLimitOf } from './http.ts'
import { decodeBase64, exactSizeImage } from './image-bytes.ts'
import type { GeneratedImage, ImageProvider, TextProvider } from './types.ts'

/**
 * The `openai` providers: any OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio)
 * through the `openai` SDK (ARCHITECTURE "AI providers").
 */
export interface OpenAiSettings {
  apiKey?: string | undefined
  baseURL?: string | undefined
  /** Chat model for scripts and scenes, e.g. `gpt-4o-mini` or `llama3.1`. */
  model: string
  /** Image model, e.g. `gpt-image-1`. */
  imageModel: string
  textTimeoutMs: number
  imageTimeoutMs: number
  /** The operator's allow list and time limit (`OUTBOUND_*`); default none and 5 min. */
  outbound?: OutboundSettings | undefined
  /** `IMAGE_RESULT_MAX_BYTES`; default DEFAULT_IMAGE_RESULT_MAX_BYTES. */
  imageMaxBytes?: number | undefined
}

/** Who we name in messages a person reads. */
const PROVIDER_LABEL = 'The AI text service'
const IMAGE_PROVIDER_LABEL = 'The AI image service'
/** No SDK retries: the caller's timeout is the whole budget, and a retry would eat it. */
const SDK_MAX_RETRIES = 0
/** Scenes: one retry when the model's answer is not valid (issue 4). */
const SCENE_ATTEMPTS = 2

function client(settings: OpenAiSettings): OpenAI {
  return new OpenAI({
    // Local servers (Ollama, vLLM, LM Studio) need no key, but the SDK insists on one.
    apiKey: settings.apiKey ?? 'not-needed',
    baseURL: settings.baseURL ?? null,
    timeout: settings.textTimeoutMs,
    maxRetries: SDK_MAX_RETRIES,
  })
}

/** Maps an SDK failure (status error, connection error, timeout, abort) to a ProviderError. */
function sdkError(error: unknown, label: string, signal: AbortSignal) {
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return upstreamStatus(label, error.status, error)
  }
  // A 200 whose body is not JSON: the SDK's parse fails.
  if (error instanceof SyntaxError) return malformed(label, error)
  return toProviderError(error, label, signal)
}

const SCRIPT_SYSTEM_PROMPT = [
  'You write scripts for short online videos.',
  'Write the narration a presenter reads aloud: a title line, a hook, then short sections with plain headings, then a closing line.',
  'Keep to the length you are asked for: count only the words read aloud, not the title or the headings.',
  'Plain text only: no Markdown symbols, no stage directions in brackets.',
].join(' ')

/**
 * The script request's user message: the topic and choices, and the length in words of
 * narration for its target (issue 42 item 1: shared's `narrationBudget`, the target less the
 * pauses around its scenes, at the narrator's rate).
 */
export function scriptPrompt(input: GenerateScriptInput): string {
  const targetSeconds = input.targetSeconds ?? TARGET_SECONDS_DEFAULT
  const budget = narrationBudget({ targetSeconds, sceneCount: input.sceneCount })
  const sections =
    budget.words < SHORT_SCRIPT_WORDS
      ? 'It is short: a hook, one or two short sections and a closing line.'
      : ''
  return [
    `Topic: ${input.topic}`,
    `Format: ${input.format}`,
    `Style: ${input.style}`,
    `Tone: ${input.tone}`,
    `Length: about ${budget.words} words read aloud (a ${formatTargetLength(targetSeconds)} video in ${budget.sceneCount} ${budget.sceneCount === 1 ? 'scene' : 'scenes'}). ${sections}`.trim(),
  ].join('\n')
}

/** Below this many words a script has room for only a section or two. */
const SHORT_SCRIPT_WORDS = 120

const SCENES_SYSTEM_PROMPT = [
  'You split a video script into scenes for a storyboard.',
  'Each scene has "narration" (the exact script text spoken in that scene, in order, covering the whole script) and "visuals" (one or two sentences describing a concrete shot: framing, subject, setting, mood).',
  'Answer only with JSON matching the schema.',
].join(' ')

/** The JSON schema the model is asked for (the count is checked after parsing). */
const scenesAnswer = z.object({
  scenes: z.array(z.object({ narration: z.string(), visuals: z.string() })),
})

function validScenes(count: number) {
  return z.object({
    scenes: z
      .array(z.object({ narration: z.string().trim().min(1), visuals: z.string().trim().min(1) }))
      .length(count),
  })
}

/** The text provider on an OpenAI-compatible chat completions API. */
export function createOpenAiTextProvider(settings: OpenAiSettings): TextProvider {
  const openai = client(settings)
  const options = (signal: AbortSignal) => ({ signal, timeout: settings.textTimeoutMs })

  async function chat(
    messages: OpenAI.Chat.ChatCompletionMessageParam[],
    signal: AbortSignal,
    responseFormat?: OpenAI.Chat.ChatCompletionCreateParams['response_format'],
  ): Promise<string> {
    let completion: OpenAI.Chat.ChatCompletion
    try {
      completion = await openai.chat.completions.create(
        {
          model: settings.model,
          messages,
          ...(responseFormat ? { response_format: responseFormat } : {}),
        },
        options(signal),
      )
    } catch (error) {
      throw sdkError(error, PROVIDER_LABEL, signal)
    }
    // A compatible server may answer with any shape; read it defensively.
    const content = (completion as Partial<OpenAI.Chat.ChatCompletion> | null)?.choices?.[0]
      ?.message?.content
    if (typeof content !== 'string' || content.trim() === '') throw malformed(PROVIDER_LABEL)
    return content
  }

  return {
    info: { id: 'openai', name: `OpenAI-compatible (${settings.model})`, offline: false },

    async generateScript(input: GenerateScriptInput, signal: AbortSignal): Promise<string> {
      const content = await chat(
        [
          { role: 'system', content: SCRIPT_SYSTEM_PROMPT },
          { role: 'user', content: scriptPrompt(input) },
        ],
        signal,
      )
      return content.trim()
    },

    async generateScenes(input, signal): Promise<Scene[]> {
      const expected = validScenes(input.sceneCount)
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: SCENES_SYSTEM_PROMPT },
        {
          role: 'user',
          content: `Split this script into exactly ${input.sceneCount} scenes.\n\nScript:\n${input.script}`,
        },
      ]
      let lastProblem: unknown
      for (let attempt = 1; attempt <= SCENE_ATTEMPTS; attempt++) {
        const content = await chat(messages, signal, zodResponseFormat(scenesAnswer, 'scenes'))
        const result = parseJson(content, expected)
        if (result.ok) return result.value.scenes
        lastProblem = result.problem
        // Tell the model what was wrong; the retry sees its own answer and the correction.
        messages.push(
          { role: 'assistant', content },
          {
            role: 'user',
            content: `That answer was not valid (${result.summary}). Answer again with JSON: {"scenes": [...]} with exactly ${input.sceneCount} scenes, each with non-empty "narration" and "visuals".`,
          },
        )
      }
      throw malformed(PROVIDER_LABEL, lastProblem)
    },
  }
}

function parseJson<T extends z.ZodType>(
  content: string,
  schema: T,
): { ok: true; value: z.output<T> } | { ok: false; problem: unknown; summary: string } {
  let json: unknown
  try {
    // Some local models wrap JSON in a Markdown fence despite the response format.
    json = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''))
  } catch (error) {
    return { ok: false, problem: error, summary: 'not JSON' }
  }
  const parsed = schema.safeParse(json)
  if (parsed.success) return { ok: true, value: parsed.data }
  const first = parsed.error.issues[0]
  return {
    ok: false,
    problem: parsed.error,
    summary: first ? `${first.path.join('.') || 'answer'}: ${first.message}` : 'wrong shape',
  }
}

/** Sizes each image model family accepts; the nearest aspect ratio is asked, then resized. */
const GPT_IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const
const DALL_E_3_SIZES = ['1024x1024', '1792x1024', '1024x1792'] as const
const DALL_E_2_SIZES = ['1024x1024'] as const

/** The supported size whose aspect ratio is nearest to `width` x `height`. */
export function nearestImageSize(model: string, width: number, height: number): string {
  const sizes = model.startsWith('dall-e-3')
    ? DALL_E_3_SIZES
    : model.startsWith('dall-e-2')
      ? DALL_E_2_SIZES
      : GPT_IMAGE_SIZES
  const wanted = Math.log(width / height)
  let best: string = sizes[0]
  let bestDistance = Infinity
  for (const size of sizes) {
    const [w, h] = size.split('x').map(Number) as [number, number]
    const distance = Math.abs(Math.log(w / h) - wanted)
    if (distance < bestDistance) {
      bestDistance = distance
      best = size
    }
  }
  return best
}

const imagesAnswer = z.object({
  data: z.array(z.object({ b64_json: z.string().nullish(), url: z.string().nullish() })).min(1),
})

/** The image provider on an OpenAI-compatible images API (`gpt-image-1`, base64). */
export function createOpenAiImageProvider(settings: OpenAiSettings): ImageProvider {
  const openai = client(settings)
  const model = settings.imageModel
  // An image answered as a URL is judged by the outbound guard (issue 40 item 1).
  const policy = outboundPolicy([settings.baseURL], settings.outbound)
  return {
    info: { id: 'openai', name: `OpenAI images (${model})`, offline: false },

    listModels(): Promise<ImageModel[]> {
      return Promise.resolve([
        { id: model, name: model, modelVersions: [{ id: model, name: model }] },
      ])
    },

    async generateImage(
      request: GenerateImageRequest & { seed: number },
      signal: AbortSignal,
    ): Promise<GeneratedImage> {
      // OpenAI images have no negative prompt or seed; the negative prompt goes into the text.
      const prompt = request.negativePrompt.trim()
        ? `${request.prompt}\n\nAvoid: ${request.negativePrompt.trim()}`
        : request.prompt
      let answer: unknown
      try {
        answer = await openai.images.generate(
          {
            model,
            prompt,
            n: 1,
            size: nearestImageSize(model, request.width, request.height) as '1024x1024',
            // gpt-image models always answer base64 and refuse this parameter.
            ...(model.startsWith('dall-e') ? { response_format: 'b64_json' as const } : {}),
          },
          { signal, timeout: settings.imageTimeoutMs },
        )
      } catch (error) {
        throw sdkError(error, IMAGE_PROVIDER_LABEL, signal)
      }
      const parsed = imagesAnswer.safeParse(answer)
      if (!parsed.success) throw malformed(IMAGE_PROVIDER_LABEL, parsed.error)
      const image = parsed.data.data[0]!
      let bytes: Uint8Array
      const limit = imageLimitOf(settings.imageMaxBytes)
      if (image.b64_json) bytes = decodeBase64(IMAGE_PROVIDER_LABEL, image.b64_json, limit)
      else if (image.url) {
        bytes = (
          await fetchBytes(
            IMAGE_PROVIDER_LABEL,
            image.url,
            { signal },
            { policy, what: 'a result', limit },
          )
        ).bytes
      } else throw malformed(IMAGE_PROVIDER_LABEL)
      return exactSizeImage(IMAGE_PROVIDER_LABEL, bytes, request.width, request.height)
    },
  }
}
