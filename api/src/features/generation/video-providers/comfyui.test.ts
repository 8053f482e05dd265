import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { abortingDuring, type RecordedRequest } from '../providers/testing/http-server.ts'
import { describeImage, solidPng } from '../providers/testing/images.ts'
import { rejection } from '../providers/testing/rejection.ts'
import {
  createComfyuiImageProvider,
  createComfyuiVideoProvider,
  type ComfyuiSettings,
} from './comfyui.ts'
import { type ComfyuiModel, loadComfyuiWorkflows } from './comfyui-workflows.ts'
import { clipFolder, TEST_POLL_MS, TEST_RETRY } from './testing/clip-folder.ts'
import { clipRequest, progressLog, startImage } from './testing/clip-request.ts'
import { type ComfyuiFake, startComfyuiFake } from './testing/comfyui-fake.ts'
import { fileReaches, largeClipBytes, resultFile, tinyMp4 } from './testing/result-file.ts'

/** The example the README documents (docs/comfyui/). */
const DOCS = join(dirname(fileURLToPath(import.meta.url)), '../../../../../docs/comfyui')

let fake: ComfyuiFake
let settings: ComfyuiSettings
let clip: Uint8Array
let wan: ComfyuiModel

const work = clipFolder('comfyui-test')

beforeAll(async () => {
  clip = await tinyMp4()
  fake = await startComfyuiFake(clip)
  settings = {
    url: fake.server.url,
    pollIntervalMs: TEST_POLL_MS,
    retry: TEST_RETRY,
  }
  const workflows = join(work.dir, 'workflows')
  await mkdir(workflows)
  for (const file of ['wan22-ti2v-5b.json', 'wan22-ti2v-5b.reelgraph.json']) {
    await copyFile(join(DOCS, file), join(workflows, file))
  }
  ;[wan] = loadComfyuiWorkflows(workflows) as [ComfyuiModel]
})
afterAll(async () => {
  await fake.server.close()
})
beforeEach(() => fake.reset())

const signal = () => new AbortController().signal
const { outPath } = work

describe('ComfyUI workflows with their sidecars', () => {
  it('turns the documented Wan 2.2 example into a catalog model', () => {
    expect(wan.definition.model).toEqual({
      id: 'comfyui:wan22-ti2v-5b',
      provider: 'comfyui',
      providerName: 'ComfyUI',
      name: 'Wan 2.2 TI2V 5B (our GPU)',
      kind: 'video',
      offline: false,
      capabilities: {
        textToVideo: false,
        imageToVideo: true,
        lastFrame: false,
        audio: false,
        durations: [3, 5],
        aspectRatios: ['16:9', '9:16', '1:1'],
        resolutions: ['704p'],
      },
      cost: { credits: 1, per: 'second' },
    })
  })

  it.each<[string, Record<string, unknown> | undefined, RegExp]>([
    [
      'a workflow without its sidecar',
      undefined,
      /flow\.json has no sidecar flow\.reelgraph\.json/,
    ],
    [
      'a sidecar naming an input the node lacks',
      { name: 'X', inputs: { prompt: { node: '6', input: 'prompt' } } },
      /names input "prompt" of node 6 \(CLIPTextEncode\) for prompt, which it does not have/,
    ],
    [
      'a sidecar naming a node the workflow lacks',
      { name: 'X', inputs: { prompt: { node: '99', input: 'text' } } },
      /names node 99 for prompt, which flow\.json does not have/,
    ],
    [
      'a sidecar that is not one',
      { name: 'X', inputs: {} },
      /is not a valid sidecar: inputs\.prompt/,
    ],
  ])('refuses %s at boot, naming the file', async (_label, sidecar, message) => {
    const folder = await mkdtemp(join(work.dir, 'bad-'))
    await writeFile(
      join(folder, 'flow.json'),
      JSON.stringify({
        '6': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['1', 0] } },
      }),
    )
    if (sidecar) await writeFile(join(folder, 'flow.reelgraph.json'), JSON.stringify(sidecar))
    expect(() => loadComfyuiWorkflows(folder)).toThrow(message)
  })

  it('refuses a workflow saved in the UI format, saying how to export the API format', async () => {
    const folder = await mkdtemp(join(work.dir, 'ui-'))
    await writeFile(
      join(folder, 'flow.json'),
      JSON.stringify({ nodes: [], links: [], version: 0.4 }),
    )
    await writeFile(join(folder, 'flow.reelgraph.json'), JSON.stringify({ name: 'X', inputs: {} }))
    expect(() => loadComfyuiWorkflows(folder)).toThrow(/Export \(API\)/)
  })
})

describe('ComfyUI video provider (a local server speaking ComfyUI’s routes)', () => {
  it('uploads the start image, queues the workflow with Reelgraph’s values, follows it and fetches the video', async () => {
    fake.ahead = 2
    fake.pendingPolls = 2
    fake.runningPolls = 2
    const image = await startImage()
    const provider = createComfyuiVideoProvider(settings, [wan])
    const { reports, onProgress } = progressLog()
    const generated = await provider.generateClip(
      clipRequest(wan.definition, {
        startImage: image,
        durationSeconds: 5,
        aspectRatio: '9:16',
        negativePrompt: 'text',
      }),
      { signal: signal(), onProgress },
    )
    const path = outPath()
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(clip)

    expect(fake.uploads).toHaveLength(1)
    expect(fake.uploads[0]!.name).toMatch(/^reelgraph-[0-9a-f]{24}\.png$/)
    expect(fake.uploads[0]!.body).toMatch(/name="type"\r\n\r\ninput/)
    const [queued] = fake.prompts
    const inputs = (node: string) => queued!.prompt[node]!.inputs
    expect(inputs('6').text).toBe('A lighthouse at dusk, waves rolling in')
    expect(inputs('7').text).toBe('text')
    expect(inputs('56').image).toBe(fake.uploads[0]!.name)
    expect(inputs('3').seed).toBe(1234)
    // 9:16 from the sidecar's sizes; 5 s at 24 fps plus one frame.
    expect([inputs('55').width, inputs('55').height, inputs('55').length]).toEqual([704, 1280, 121])
    expect(inputs('57').fps).toBe(24)
    // The rest of the workflow is as exported.
    expect(inputs('37').unet_name).toBe('wan2.2_ti2v_5B_fp16.safetensors')

    expect(reports).toEqual([
      { state: 'queued' },
      { state: 'queued', queuePosition: 2 },
      { state: 'queued', queuePosition: 2 },
      { state: 'running' },
      { state: 'running' },
    ])
    const view = fake.server.requests.find((r) => r.pathname === '/view')!
    expect(Object.fromEntries(view.query)).toEqual({
      filename: 'ComfyUI_00001_.mp4',
      subfolder: 'video',
      type: 'output',
    })
  })

  it('refuses, in words, a clip without the start image the workflow loads', async () => {
    const provider = createComfyuiVideoProvider(settings, [wan])
    const error = await rejection(
      provider.generateClip(clipRequest(wan.definition), {
        signal: signal(),
        onProgress: () => {},
      }),
    )
    expect(error.message).toBe(
      'Wan 2.2 TI2V 5B (our GPU) makes clips from a start image: connect an image to the Video Generator.',
    )
    expect(fake.prompts).toHaveLength(0)
  })

  it('turns an execution error into the node and ComfyUI’s message', async () => {
    fake.outcome = {
      kind: 'error',
      nodeType: 'KSampler',
      message: 'Allocation on device 0 would exceed allowed memory. (out of memory)',
    }
    const provider = createComfyuiVideoProvider(settings, [wan])
    const error = await rejection(
      provider.generateClip(clipRequest(wan.definition, { startImage: await startImage() }), {
        signal: signal(),
        onProgress: () => {},
      }),
    )
    expect(error.message).toBe(
      'ComfyUI could not run the workflow in KSampler: Allocation on device 0 would exceed allowed memory. (out of memory)',
    )
    expect(error.transient).toBe(false)
  })

  it('turns a workflow ComfyUI will not queue (400) into its reason', async () => {
    fake.rejectPrompt = true
    const provider = createComfyuiVideoProvider(settings, [wan])
    const error = await rejection(
      provider.generateClip(clipRequest(wan.definition, { startImage: await startImage() }), {
        signal: signal(),
        onProgress: () => {},
      }),
    )
    expect(error.message).toBe('ComfyUI refused the request: Prompt outputs failed validation')
  })

  it('waits what Retry-After asks on 429 (a proxy in front of ComfyUI)', async () => {
    fake.rateLimit = { count: 1, retryAfter: '1' }
    const provider = createComfyuiVideoProvider(settings, [wan])
    await provider.generateClip(clipRequest(wan.definition, { startImage: await startImage() }), {
      signal: signal(),
      onProgress: () => {},
    })
    expect(fake.prompts).toHaveLength(2)
    expect(fake.prompts[1]!.at - fake.prompts[0]!.at).toBeGreaterThanOrEqual(950)
  })

  it('reads an output that answers only once once, streaming it to disk', async () => {
    const big = largeClipBytes(512 * 1024)
    const path = outPath()
    const file = resultFile(big)
    file.once = true
    file.beforeRest = () => fileReaches(path, big.byteLength / 2)
    fake.reset(file)
    const provider = createComfyuiVideoProvider(settings, [wan])
    const generated = await provider.generateClip(
      clipRequest(wan.definition, { startImage: await startImage() }),
      { signal: signal(), onProgress: () => {} },
    )
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(big)
    expect(file.served).toBe(1)
  })

  it('interrupts the running prompt when the signal aborts', async () => {
    fake.runningPolls = 1000
    const controller = new AbortController()
    const provider = createComfyuiVideoProvider(settings, [wan])
    const error = await rejection(
      provider.generateClip(clipRequest(wan.definition, { startImage: await startImage() }), {
        signal: controller.signal,
        onProgress: (report) => {
          if (report.state === 'running') controller.abort()
        },
      }),
    )
    expect(error.kind).toBe('unavailable')
    const promptId = /^\/history\/(.+)$/.exec(
      fake.server.requests.find((r) => r.pathname.startsWith('/history/'))!.pathname,
    )![1]
    expect(fake.interrupts).toEqual([{ prompt_id: promptId }])
    expect(fake.deletes).toEqual([])
  })

  it('deletes a waiting prompt from the queue when the signal aborts', async () => {
    fake.ahead = 1
    fake.pendingPolls = 1000
    const controller = new AbortController()
    const provider = createComfyuiVideoProvider(settings, [wan])
    await rejection(
      provider.generateClip(clipRequest(wan.definition, { startImage: await startImage() }), {
        signal: controller.signal,
        onProgress: (report) => {
          if (report.queuePosition !== undefined) controller.abort()
        },
      }),
    )
    const promptId = /^\/history\/(.+)$/.exec(
      fake.server.requests.find((r) => r.pathname.startsWith('/history/'))!.pathname,
    )![1]
    expect(fake.deletes).toEqual([{ delete: [promptId] }])
    expect(fake.interrupts).toEqual([])
  })

  it('deletes a prompt queued while the job was being cancelled: the queueing ends, then the delete', async () => {
    fake.ahead = 1
    fake.pendingPolls = 1000
    const controller = new AbortController()
    const queueing = (req: RecordedRequest) => req.method === 'POST' && req.pathname === '/prompt'
    fake.server.handle(abortingDuring(controller, queueing, fake.protocol))
    const provider = createComfyuiVideoProvider(settings, [wan])
    const error = await rejection(
      provider.generateClip(clipRequest(wan.definition, { startImage: await startImage() }), {
        signal: controller.signal,
        onProgress: () => {},
      }),
    )
    expect(error.kind).toBe('unavailable')
    expect(fake.deletes).toHaveLength(1)
    expect(fake.interrupts).toEqual([])
    expect(fake.server.requests.filter((r) => r.pathname.startsWith('/history/'))).toEqual([])
  })

  it('saves an output that is no real video as it is (the clip job checks it)', async () => {
    fake.reset(resultFile(clip.subarray(0, 100)))
    const provider = createComfyuiVideoProvider(settings, [wan])
    const generated = await provider.generateClip(
      clipRequest(wan.definition, { startImage: await startImage() }),
      { signal: signal(), onProgress: () => {} },
    )
    const path = outPath()
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(clip.subarray(0, 100))
  })
})

describe('ComfyUI image workflows', () => {
  it('draws with an image workflow and crops to the asked size', async () => {
    const folder = await mkdtemp(join(work.dir, 'image-'))
    await writeFile(
      join(folder, 'sdxl.json'),
      JSON.stringify({
        '6': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['4', 1] } },
        '5': {
          class_type: 'EmptyLatentImage',
          inputs: { width: 1024, height: 1024, batch_size: 1 },
        },
        '3': { class_type: 'KSampler', inputs: { seed: 0, steps: 20 } },
        '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'ComfyUI', images: ['8', 0] } },
      }),
    )
    await writeFile(
      join(folder, 'sdxl.reelgraph.json'),
      JSON.stringify({
        name: 'SDXL',
        kind: 'image',
        inputs: {
          prompt: { node: '6', input: 'text' },
          seed: { node: '3', input: 'seed' },
          width: { node: '5', input: 'width' },
          height: { node: '5', input: 'height' },
        },
      }),
    )
    const [sdxl] = loadComfyuiWorkflows(folder) as [ComfyuiModel]
    expect(sdxl.definition.model).toMatchObject({
      id: 'comfyui:sdxl',
      kind: 'image',
      cost: { credits: 1, per: 'image' },
    })
    fake.reset(resultFile(await solidPng(768, 512), 'image/png'))
    fake.outcome = {
      kind: 'output',
      node: '9',
      files: [{ filename: 'ComfyUI_00001_.png', subfolder: '', type: 'output' }],
    }
    const image = await createComfyuiImageProvider(settings, sdxl).generateImage(
      {
        projectId: 1,
        modelVersionId: 'comfyui:sdxl',
        prompt: 'a red fox',
        negativePrompt: '',
        width: 768,
        height: 512,
        numInferenceSteps: 20,
        guidanceScale: 7,
        seed: 9,
      },
      signal(),
    )
    expect(await describeImage(image.bytes)).toEqual({ width: 768, height: 512, format: 'png' })
    const inputs = fake.prompts[0]!.prompt
    expect([
      inputs['5']!.inputs.width,
      inputs['5']!.inputs.height,
      inputs['3']!.inputs.seed,
    ]).toEqual([768, 512, 9])
  })
})
