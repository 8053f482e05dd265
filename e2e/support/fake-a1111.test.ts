import { inflateSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { type FakeA1111, solidPng, startFakeA1111 } from './fake-a1111.ts'

let fake: FakeA1111 | null = null
afterEach(async () => {
  await fake?.close()
  fake = null
})

const txt2img = (url: string, signal?: AbortSignal) =>
  fetch(`${url}/sdapi/v1/txt2img`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A bee', width: 64, height: 64 }),
    signal,
  })

describe('solidPng', () => {
  it('is a PNG of the asked size and colour', () => {
    const png = solidPng(3, 2, [1, 2, 3])
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(png.readUInt32BE(16)).toBe(3)
    expect(png.readUInt32BE(20)).toBe(2)
    const idatLength = png.readUInt32BE(33)
    expect(png.subarray(37, 41).toString('ascii')).toBe('IDAT')
    const rows = inflateSync(png.subarray(41, 41 + idatLength))
    expect([...rows]).toEqual([0, 1, 2, 3, 1, 2, 3, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3])
  })
})

describe('the fake Stable Diffusion server', () => {
  it('lists one checkpoint and paints at once when not held', async () => {
    fake = await startFakeA1111()
    const models = await (await fetch(`${fake.url}/sdapi/v1/sd-models`)).json()
    expect(models).toEqual([{ title: fake.model, model_name: 'storyboard-sd15' }])
    const answer = (await (await txt2img(fake.url)).json()) as { images: string[] }
    expect(
      Buffer.from(answer.images[0] ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG')
    expect(fake.received).toBe(1)
  })

  it('holds txt2img until released', async () => {
    fake = await startFakeA1111()
    fake.hold()
    let answered = false
    const call = txt2img(fake.url).then((res) => {
      answered = true
      return res.status
    })
    await fake.waitForCalls(1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(answered).toBe(false)
    const progress = async () =>
      ((await (await fetch(`${fake?.url}/sdapi/v1/progress`)).json()) as { progress: number })
        .progress
    expect(await progress()).toBe(0)
    fake.setProgress(0.4)
    expect(await progress()).toBe(0.4)
    fake.release()
    expect(await progress()).toBe(0)
    expect(await call).toBe(200)
  })

  it('refuses held calls when told to, and answers later ones', async () => {
    fake = await startFakeA1111()
    fake.hold()
    const call = txt2img(fake.url)
    await fake.waitForCalls(1)
    fake.fail(422, 'Invalid sampler')
    const res = await call
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ detail: 'Invalid sampler' })
    expect((await txt2img(fake.url)).status).toBe(200)
  })

  it('counts a call whose client went away', async () => {
    fake = await startFakeA1111()
    fake.hold()
    const abort = new AbortController()
    const call = txt2img(fake.url, abort.signal).catch(() => 'aborted')
    await fake.waitForCalls(1)
    abort.abort()
    expect(await call).toBe('aborted')
    await expect.poll(() => fake?.abandoned).toBe(1)
  })

  it('gives up waiting for calls after the timeout', async () => {
    fake = await startFakeA1111()
    await expect(fake.waitForCalls(1, 50)).rejects.toThrow('called 0 times, not 1')
  })
})
