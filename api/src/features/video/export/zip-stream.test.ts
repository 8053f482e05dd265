import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { until } from '../../../testing/until.ts'
import { zipStream } from './zip-stream.ts'

/** The export's ZIP (issue 24 item 3): made as it is read, media pulled only when wanted. */

const CHUNK = 64 * 1024

/** A source of `count` chunks of bytes `i % 251`, counting how many were pulled. */
function counted(count: number) {
  const state = { pulled: 0, cancelled: false }
  const open = async () =>
    new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (state.pulled === count) {
            controller.close()
            return
          }
          const chunk = new Uint8Array(CHUNK)
          for (let i = 0; i < CHUNK; i++) chunk[i] = (state.pulled * CHUNK + i) % 251
          state.pulled += 1
          controller.enqueue(chunk)
        },
        cancel() {
          state.cancelled = true
        },
      },
      { highWaterMark: 0 },
    )
  return { state, open }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  for await (const part of stream) parts.push(part)
  const all = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of parts) {
    all.set(p, at)
    at += p.byteLength
  }
  return all
}

describe('zipStream', () => {
  it('makes a ZIP whose entries unpack to their bytes, in order', async () => {
    const media = counted(5)
    const text = new TextEncoder().encode('{"OTIO_SCHEMA": "Timeline.1"}\n'.repeat(100))
    const zip = await readAll(
      zipStream(
        [
          { name: 'Film.otio', source: text, compress: true },
          { name: 'media/scene-01.mp4', source: media.open },
          { name: 'media/empty.wav', source: new Uint8Array(0) },
        ],
        { mtime: new Date('2026-01-02T03:04:05Z') },
      ),
    )
    const files = unzipSync(zip)
    expect(Object.keys(files)).toEqual(['Film.otio', 'media/scene-01.mp4', 'media/empty.wav'])
    expect(files['Film.otio']).toEqual(text)
    expect(files['media/scene-01.mp4']!.byteLength).toBe(5 * CHUNK)
    expect(files['media/scene-01.mp4']![CHUNK + 7]).toBe((CHUNK + 7) % 251)
    expect(files['media/empty.wav']!.byteLength).toBe(0)
    // The text was deflated, the media stored as it is.
    expect(zip.byteLength).toBeLessThan(text.byteLength + 5 * CHUNK)
  })

  it('reads a source only as far as the reader has read, and cancels it with the ZIP', async () => {
    const media = counted(1000)
    const reader = zipStream([{ name: 'media/long.mp4', source: media.open }], {
      mtime: new Date(),
    }).getReader()
    for (let i = 0; i < 3; i++) await reader.read()
    expect(media.state.pulled).toBeGreaterThan(0)
    expect(media.state.pulled).toBeLessThan(10)
    await reader.cancel()
    expect(media.state.cancelled).toBe(true)
    expect(media.state.pulled).toBeLessThan(10)
  })

  it('fails the ZIP with the error of a source that fails', async () => {
    const stream = zipStream(
      [
        {
          name: 'media/gone.mp4',
          source: () => Promise.reject(new Error('The file is gone from storage')),
        },
      ],
      { mtime: new Date() },
    )
    await expect(readAll(stream)).rejects.toThrow('gone from storage')
  })

  it('aborts a source still opening when the ZIP is cancelled, and cancels what it opens', async () => {
    // A source that takes a while to open (the export's music, decoded to WAV).
    const media = counted(1000)
    let opening!: () => void
    const opened = new Promise<void>((resolve) => (opening = resolve))
    let signal: AbortSignal | null = null
    const reader = zipStream(
      [
        {
          name: 'media/music.wav',
          source: async (s) => {
            signal = s
            await opened
            return media.open()
          },
        },
      ],
      { mtime: new Date() },
    ).getReader()
    const read = reader.read()
    await until(
      async () => signal,
      (s) => s !== null,
      2_000,
      5,
    )
    await reader.cancel(new Error('The download stopped'))
    expect(signal!.aborted).toBe(true)
    opening()
    await read.catch(() => {})
    await until(async () => media.state.cancelled, Boolean, 2_000, 5)
    expect(media.state.pulled).toBeLessThan(2)
  })
})
