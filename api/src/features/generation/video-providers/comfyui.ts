import { createHash, randomUUID } from 'node:crypto'
import { extname } from 'node:path'
import { z } from 'zod'
import type { Env } from '../../../env.ts'
import {
  guardedFetch,
  type OutboundEnv,
  outboundPolicy,
  type OutboundSettings,
  outboundSettings,
} from '../../../lib/outbound/guarded-fetch.ts'
import { ProviderError } from '../../../lib/provider-error.ts'
import type { CatalogProvider } from '../catalog/model-definition.ts'
import type {
  ClipProgressReport,
  GeneratedClip,
  ImageBytes,
  VideoProvider,
} from '../catalog/types.ts'
import { exactSizeImage } from '../providers/image-bytes.ts'
import type { ImageProvider } from '../providers/types.ts'
import { readBodyBounded } from '../../../lib/outbound/bounded-body.ts'
import type { ComfyuiModel, ComfyuiWorkflow, NodeInput } from './comfyui-workflows.ts'
import { DEFAULT_COMFYUI_SIZES, loadComfyuiWorkflows } from './comfyui-workflows.ts'
import { CLIP_POLL_INTERVAL_MS } from './config.ts'
import {
  clipLimit,
  downloadBytes,
  downloadTo,
  imageLimit,
  malformedAnswer,
  providerFetch,
  providerJson,
  type ProviderWords,
  type RetryPolicy,
  DEFAULT_JSON_MAX_BYTES,
  runGeneration,
  sleep,
  unknownModel,
} from './provider-http.ts'

/**
 * A self-hosted ComfyUI (issue 22 item 2): the operator's API-format workflows (see
 * `comfyui-workflows.ts`) with Reelgraph's values put into the node inputs their sidecars
 * name. The start image is uploaded (`POST /upload/image`), the workflow queued
 * (`POST /prompt`) and followed (`GET /history/{prompt_id}`, the position from `GET /queue`),
 * the result fetched (`GET /view`); a cancel interrupts the running prompt (`POST /interrupt`)
 * or deletes a waiting one from the queue (`POST /queue` `{ delete }`). `COMFYUI_URL`'s origin
 * is trusted as configured; a redirect away from it is judged by the outbound guard like any
 * other address, and results are read only up to their limits (issue 40 items 1 and 3).
 * @see https://docs.comfy.org/development/comfyui-server/comms_routes
 */

export const COMFYUI_WORDS: ProviderWords = {
  label: 'ComfyUI',
  keyRefused: 'ComfyUI refused the request: check COMFYUI_URL and its proxy on the server.',
}

/** What the ComfyUI provider needs. */
export interface ComfyuiSettings {
  /** `COMFYUI_URL`, e.g. `http://127.0.0.1:8188`. */
  url: string
  pollIntervalMs?: number
  retry?: RetryPolicy
  /** The operator's allow list and time limit (`OUTBOUND_*`); default none and 5 min. */
  outbound?: OutboundSettings
  /** `IMAGE_RESULT_MAX_BYTES`; default DEFAULT_IMAGE_RESULT_MAX_BYTES. */
  imageMaxBytes?: number
}

/** A file ComfyUI wrote (`outputs[node].images[]`, `.gifs[]`, `.videos[]`...). */
const outputFile = z
  .object({
    filename: z.string(),
    subfolder: z.string().default(''),
    type: z.string().default('output'),
  })
  .loose()
type OutputFile = z.output<typeof outputFile>

/** The shapes of ComfyUI's server routes that Reelgraph reads. */
export const comfyuiProtocol = {
  uploaded: z
    .object({ name: z.string(), subfolder: z.string().default(''), type: z.string() })
    .loose(),
  queued: z.object({ prompt_id: z.string(), number: z.number().optional() }).loose(),
  /** `GET /queue`: entries are `[number, prompt_id, prompt, extra, outputs]`. */
  queue: z
    .object({
      queue_running: z.array(z.array(z.unknown())).default([]),
      queue_pending: z.array(z.array(z.unknown())).default([]),
    })
    .loose(),
  /** `GET /history/{prompt_id}`: `{}` until it is done. */
  history: z.record(
    z.string(),
    z
      .object({
        outputs: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
        status: z
          .object({
            status_str: z.string().optional(),
            completed: z.boolean().optional(),
            messages: z.array(z.tuple([z.string(), z.unknown()])).default([]),
          })
          .loose()
          .optional(),
      })
      .loose(),
  ),
}

const VIDEO_EXTENSIONS = new Set(['.mp4', '.webm', '.mov', '.mkv'])
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp'])

/** The files of one node's outputs, any key (`images`, `gifs`, `videos`...). */
function filesOf(output: Record<string, unknown>): OutputFile[] {
  const files: OutputFile[] = []
  for (const value of Object.values(output)) {
    if (!Array.isArray(value)) continue
    for (const item of value) {
      const parsed = outputFile.safeParse(item)
      if (parsed.success) files.push(parsed.data)
    }
  }
  return files
}

/** The result file: of the sidecar's output node, else the first of any node, by kind. */
export function pickOutput(
  outputs: Record<string, Record<string, unknown>>,
  kind: 'image' | 'video',
  node?: string,
): OutputFile | undefined {
  const wanted = kind === 'video' ? VIDEO_EXTENSIONS : IMAGE_EXTENSIONS
  const nodes = node ? [node] : Object.keys(outputs)
  for (const id of nodes) {
    const found = filesOf(outputs[id] ?? {}).find(
      (f) => f.type === 'output' && wanted.has(extname(f.filename).toLowerCase()),
    )
    if (found) return found
  }
  return undefined
}

/** Why a prompt failed, from its history's `execution_error` message. */
function executionFailure(messages: readonly [string, unknown][]): ProviderError {
  const error = messages.find(([event]) => event === 'execution_error')?.[1] as
    { exception_message?: string; node_type?: string } | undefined
  if (messages.some(([event]) => event === 'execution_interrupted')) {
    return new ProviderError('refused', 'ComfyUI interrupted this workflow. Please try again.')
  }
  const where = error?.node_type ? ` in ${error.node_type}` : ''
  const why = error?.exception_message?.replace(/\s+/g, ' ').trim().slice(0, 200)
  return new ProviderError(
    'refused',
    `ComfyUI could not run the workflow${where}${why ? `: ${why}` : '.'}`,
    { cause: messages },
  )
}

/** Puts `value` into a copy of the workflow at `ref`. */
function setInput(workflow: ComfyuiWorkflow, ref: NodeInput | undefined, value: unknown) {
  if (ref) workflow[ref.node]!.inputs[ref.input] = value
}

/** Reelgraph's values for one run of a workflow. */
interface RunValues {
  prompt: string
  negativePrompt: string
  seed: number
  width?: number | undefined
  height?: number | undefined
  frames?: number | undefined
  framesPerSecond?: number | undefined
  startImage?: ImageBytes | undefined
  lastFrame?: ImageBytes | undefined
}

/** A client of one ComfyUI server. */
export function comfyuiClient(settings: ComfyuiSettings) {
  const base = settings.url.replace(/\/+$/, '')
  const policy = outboundPolicy([base], settings.outbound)
  const retry = { policy, ...(settings.retry ? { retry: settings.retry } : {}) }
  const clientId = randomUUID()

  /** Uploads an image under a name from its bytes (the same image is one file) and names it. */
  async function upload(image: ImageBytes, signal: AbortSignal): Promise<string> {
    const hash = createHash('sha256').update(image.bytes).digest('hex').slice(0, 24)
    const extension =
      image.mimeType === 'image/jpeg' ? 'jpg' : (image.mimeType.split('/')[1] ?? 'png')
    const form = new FormData()
    form.set(
      'image',
      new Blob([Buffer.from(image.bytes)], { type: image.mimeType }),
      `reelgraph-${hash}.${extension}`,
    )
    form.set('type', 'input')
    form.set('overwrite', 'true')
    const uploaded = await providerJson(
      COMFYUI_WORDS,
      `${base}/upload/image`,
      { method: 'POST', body: form, signal },
      comfyuiProtocol.uploaded,
      retry,
    )
    return uploaded.subfolder ? `${uploaded.subfolder}/${uploaded.name}` : uploaded.name
  }

  /** Where `promptId` is: running, waiting at a position (1 = next), or neither. */
  async function whereIs(promptId: string, signal: AbortSignal) {
    const queue = await providerJson(
      COMFYUI_WORDS,
      `${base}/queue`,
      { signal },
      comfyuiProtocol.queue,
      retry,
    )
    if (queue.queue_running.some((entry) => entry[1] === promptId))
      return { running: true as const }
    const pending = [...queue.queue_pending].sort((a, b) => Number(a[0]) - Number(b[0]))
    const index = pending.findIndex((entry) => entry[1] === promptId)
    return index >= 0 ? { running: false as const, position: index + 1 } : undefined
  }

  /** Interrupts the prompt if it runs, else deletes it from the queue. */
  async function cancel(promptId: string, signal: AbortSignal) {
    const where = await whereIs(promptId, signal)
    if (where?.running) {
      await guardedFetch(
        `${base}/interrupt`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt_id: promptId }),
          signal,
        },
        policy,
      )
    } else {
      await guardedFetch(
        `${base}/queue`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ delete: [promptId] }),
          signal,
        },
        policy,
      )
    }
  }

  /** Runs a workflow with `values` and answers the output file of `kind`. */
  async function run(
    model: ComfyuiModel,
    values: RunValues,
    signal: AbortSignal,
    onProgress: (report: ClipProgressReport) => void,
  ): Promise<OutputFile> {
    const { sidecar } = model
    const workflow = structuredClone(model.workflow)
    const inputs = sidecar.inputs
    if (values.startImage && inputs.startImage)
      setInput(workflow, inputs.startImage, await upload(values.startImage, signal))
    if (values.lastFrame && inputs.lastFrame)
      setInput(workflow, inputs.lastFrame, await upload(values.lastFrame, signal))
    setInput(workflow, inputs.prompt, values.prompt)
    if (values.negativePrompt) setInput(workflow, inputs.negativePrompt, values.negativePrompt)
    setInput(workflow, inputs.seed, values.seed)
    if (values.width !== undefined) setInput(workflow, inputs.width, values.width)
    if (values.height !== undefined) setInput(workflow, inputs.height, values.height)
    if (values.frames !== undefined) setInput(workflow, inputs.length, values.frames)
    if (values.framesPerSecond !== undefined)
      setInput(workflow, inputs.frameRate, values.framesPerSecond)

    // A 400 is ComfyUI refusing the workflow (a missing model file, a wrong input): in words.
    return runGeneration({
      words: COMFYUI_WORDS,
      signal,
      submit: async (submitSignal) => {
        const response = await providerFetch(
          COMFYUI_WORDS,
          `${base}/prompt`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ prompt: workflow, client_id: clientId }),
            signal: submitSignal,
          },
          retry,
        )
        const body: unknown = await readBodyBounded(response, DEFAULT_JSON_MAX_BYTES)
          .then((bytes) => JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown)
          .catch(() => undefined)
        const parsed = comfyuiProtocol.queued.safeParse(body)
        if (!parsed.success) throw malformedAnswer(COMFYUI_WORDS, parsed.error)
        return parsed.data.prompt_id
      },
      follow: (promptId) => follow(promptId, sidecar, signal, onProgress),
      cancel,
    })
  }

  /** Polls a queued prompt's history to its end and answers its output file. */
  async function follow(
    promptId: string,
    sidecar: ComfyuiModel['sidecar'],
    signal: AbortSignal,
    onProgress: (report: ClipProgressReport) => void,
  ): Promise<OutputFile> {
    for (;;) {
      const history = await providerJson(
        COMFYUI_WORDS,
        `${base}/history/${encodeURIComponent(promptId)}`,
        { signal },
        comfyuiProtocol.history,
        retry,
      )
      const entry = history[promptId]
      if (entry?.status?.status_str === 'error') throw executionFailure(entry.status.messages)
      if (entry && (entry.status?.completed ?? true)) {
        const file = pickOutput(entry.outputs, sidecar.kind, sidecar.output?.node)
        if (!file) {
          throw new ProviderError(
            'refused',
            `The ComfyUI workflow "${sidecar.name}" finished without a ${sidecar.kind === 'video' ? 'video (mp4, webm)' : 'picture'}: check its output node.`,
            { cause: entry.outputs },
          )
        }
        return file
      }
      const where = await whereIs(promptId, signal)
      if (where && !where.running) onProgress({ state: 'queued', queuePosition: where.position })
      else onProgress({ state: 'running' })
      await sleep(settings.pollIntervalMs ?? CLIP_POLL_INTERVAL_MS, signal)
    }
  }

  /** `GET /view` of an output file. */
  function viewUrl(file: OutputFile): string {
    const query = new URLSearchParams({
      filename: file.filename,
      subfolder: file.subfolder,
      type: file.type,
    })
    return `${base}/view?${query}`
  }

  return {
    run,
    viewUrl,
    download: (file: OutputFile, path: string, signal: AbortSignal, maxBytes?: number) =>
      downloadTo(COMFYUI_WORDS, viewUrl(file), { signal }, path, {
        ...retry,
        what: 'a result',
        limit: clipLimit(maxBytes),
      }),
    bytes: (file: OutputFile, signal: AbortSignal) =>
      downloadBytes(
        COMFYUI_WORDS,
        viewUrl(file),
        { signal },
        {
          ...retry,
          what: 'a result',
          limit: imageLimit(settings.imageMaxBytes),
        },
      ),
  }
}

/** The clip maker for the video workflows. */
export function createComfyuiVideoProvider(
  settings: ComfyuiSettings,
  models: readonly ComfyuiModel[],
): VideoProvider {
  const client = comfyuiClient(settings)
  const byId = new Map(models.map((m) => [m.definition.model.id, m]))
  return {
    id: 'comfyui',
    name: 'ComfyUI',
    async generateClip(request, { signal, onProgress }): Promise<GeneratedClip> {
      const model = byId.get(request.model.id)
      if (!model) throw unknownModel(request.model.id)
      const { sidecar } = model
      if (!request.startImage && sidecar.inputs.startImage) {
        throw new ProviderError(
          'refused',
          `${sidecar.name} makes clips from a start image: connect an image to the Video Generator.`,
        )
      }
      const size = (sidecar.sizes ?? DEFAULT_COMFYUI_SIZES)[request.aspectRatio]
      onProgress({ state: 'queued' })
      const file = await client.run(
        model,
        {
          prompt: request.prompt,
          negativePrompt: request.negativePrompt,
          seed: request.seed,
          width: size?.width,
          height: size?.height,
          frames:
            Math.round(request.durationSeconds * sidecar.framesPerSecond) + sidecar.extraFrames,
          framesPerSecond: sidecar.framesPerSecond,
          startImage: request.startImage,
          lastFrame: request.lastFrame,
        },
        signal,
        onProgress,
      )
      return {
        saveTo: (path, saveSignal, maxBytes) => client.download(file, path, saveSignal, maxBytes),
      }
    },
  }
}

/** The image maker bound to one image workflow. */
export function createComfyuiImageProvider(
  settings: ComfyuiSettings,
  model: ComfyuiModel,
): ImageProvider {
  const client = comfyuiClient(settings)
  const entry = model.definition.model
  return {
    info: { id: 'comfyui', name: `ComfyUI ${entry.name}`, offline: false },
    listModels: () =>
      Promise.resolve([{ id: entry.id, name: entry.name, modelVersions: [{ id: entry.id }] }]),
    async generateImage(request, signal, onProgress) {
      const file = await client.run(
        model,
        {
          prompt: request.prompt,
          negativePrompt: request.negativePrompt,
          seed: request.seed,
          width: request.width,
          height: request.height,
        },
        signal,
        (report) => {
          if (report.percent !== undefined) onProgress?.(report.percent)
        },
      )
      return exactSizeImage(
        COMFYUI_WORDS.label,
        await client.bytes(file, signal),
        request.width,
        request.height,
      )
    },
  }
}

/**
 * ComfyUI in the model catalog: on with `COMFYUI_URL`; its models are the workflows of
 * `COMFYUI_WORKFLOWS_DIR`, read at boot.
 * @throws Error naming the workflow or sidecar that is wrong (see loadComfyuiWorkflows).
 */
export function comfyuiCatalog(
  env: Pick<Env, 'COMFYUI_URL' | 'COMFYUI_WORKFLOWS_DIR' | 'COMFYUI_CONCURRENCY'> & OutboundEnv,
): CatalogProvider {
  const settings: ComfyuiSettings = {
    url: env.COMFYUI_URL ?? '',
    outbound: outboundSettings(env),
    imageMaxBytes: env.IMAGE_RESULT_MAX_BYTES,
  }
  const models =
    env.COMFYUI_URL && env.COMFYUI_WORKFLOWS_DIR
      ? loadComfyuiWorkflows(env.COMFYUI_WORKFLOWS_DIR)
      : []
  const byId = new Map(models.map((m) => [m.definition.model.id, m]))
  return {
    id: 'comfyui',
    name: 'ComfyUI',
    enabled: env.COMFYUI_URL !== undefined,
    disabledReason: 'COMFYUI_URL is not set',
    defaults: models.map((m) => m.definition),
    acceptsFileModels: false,
    concurrency: env.COMFYUI_CONCURRENCY,
    video: () =>
      createComfyuiVideoProvider(
        settings,
        models.filter((m) => m.sidecar.kind === 'video'),
      ),
    image: (definition) => createComfyuiImageProvider(settings, byId.get(definition.model.id)!),
  }
}
