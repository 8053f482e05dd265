import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createBuiltinImageProvider, storyboardSvg } from './builtin-image.ts'
import { escapeXml } from './storyboard-svg.ts'
import { ProviderError } from './types.ts'

const provider = createBuiltinImageProvider()

function request(overrides: { prompt?: string; width?: number; height?: number; seed?: number }) {
  return {
    projectId: 1,
    modelVersionId: 'storyboard-v1',
    prompt: 'A lighthouse on a rocky cliff at dusk, waves crashing below',
    negativePrompt: '',
    width: 1280,
    height: 720,
    numInferenceSteps: 25,
    guidanceScale: 7.5,
    seed: 42,
    ...overrides,
  }
}

describe('builtin image provider', () => {
  it('describes itself as offline and lists its one storyboard model', async () => {
    expect(provider.info).toEqual({
      id: 'builtin',
      name: 'Storyboard frames (offline)',
      offline: true,
    })
    expect(await provider.listModels(10, new AbortController().signal)).toEqual([
      {
        id: 'storyboard',
        name: 'Storyboard frames (offline)',
        modelVersions: [{ id: 'storyboard-v1', name: 'v1' }],
      },
    ])
  })

  it.each([
    // The render presets' frames, drawn at that size (issue 20 item 4).
    [1920, 1080],
    [1080, 1920],
    [1080, 1080],
    [64, 64],
    [1280, 720],
    [720, 1280],
    [512, 512],
    [64, 2048],
    [2048, 2048],
  ])('renders a PNG of exactly %i x %i', async (width, height) => {
    const image = await provider.generateImage(
      request({ width, height }),
      new AbortController().signal,
    )
    expect(image.mimeType).toBe('image/png')
    expect(Array.from(image.bytes.subarray(0, 4))).toEqual([0x89, 0x50, 0x4e, 0x47])
    const meta = await sharp(image.bytes).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', width, height])
    // Drawn at that size, not drawn smaller and scaled up (issue 20 item 4).
    const svg = await storyboardSvg(request({}).prompt, width, height, 42)
    const drawn = await sharp(Buffer.from(svg), { density: 72 }).metadata()
    expect([drawn.width, drawn.height]).toEqual([width, height])
  })

  it('gives the same bytes for the same request and different ones for another seed', async () => {
    const signal = new AbortController().signal
    const a = await provider.generateImage(request({ seed: 7 }), signal)
    const b = await provider.generateImage(request({ seed: 7 }), signal)
    const c = await provider.generateImage(request({ seed: 8 }), signal)
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true)
    expect(Buffer.from(a.bytes).equals(Buffer.from(c.bytes))).toBe(false)
  })

  it('renders prompts full of markup, control characters and lone surrogates', async () => {
    const prompt = `<svg onload="x"> & ' " ]]> \u0000\u0007 \uD800 emoji 🎬 日本語 ${'word '.repeat(800)}`
    const image = await provider.generateImage(request({ prompt }), new AbortController().signal)
    const meta = await sharp(image.bytes).metadata()
    expect([meta.width, meta.height]).toEqual([1280, 720])
  })

  it('escapes XML and drops characters XML forbids', async () => {
    expect(escapeXml(`<a href="x">&'</a>\u0001\uDC00`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;',
    )
    const svg = await storyboardSvg('</text><script>alert(1)</script>', 640, 360, 3)
    expect(svg).not.toContain('<script>')
    expect(svg).toContain('>Offline draft</text>')
  })

  it('rejects with a ProviderError when the signal is already aborted or aborts mid-render', async () => {
    const aborted = AbortSignal.abort()
    await expect(provider.generateImage(request({}), aborted)).rejects.toBeInstanceOf(ProviderError)
    await expect(provider.listModels(10, aborted)).rejects.toBeInstanceOf(ProviderError)

    const controller = new AbortController()
    const pending = provider.generateImage(
      request({ width: 2048, height: 2048 }),
      controller.signal,
    )
    controller.abort()
    await expect(pending).rejects.toMatchObject({ kind: 'unavailable' })

    const timedOut = AbortSignal.timeout(0)
    await new Promise((r) => setTimeout(r, 5))
    await expect(provider.generateImage(request({}), timedOut)).rejects.toMatchObject({
      kind: 'timeout',
    })
  })
})
