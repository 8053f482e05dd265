import { Worker } from 'node:worker_threads'
import { SpeechError } from './errors.ts'
import type { EspeakJob, EspeakMark, EspeakReply } from './espeak-protocol.ts'
import type { Pcm } from './pcm.ts'
import type { SpeechVoice } from './types.ts'

/**
 * eSpeak NG (`@echogarden/espeak-ng-emscripten`, WebAssembly, GPL-3.0; see
 * docs/decisions/004) in one worker thread per process, started on first use: synthesis is
 * synchronous WebAssembly, and a scene takes a fraction of a second that the api's event loop
 * should not lose. Jobs run one at a time in order. The worker does not keep the process alive
 * while idle.
 */

const WORKER_URL = new URL('./espeak-worker.ts', import.meta.url)
const LABEL = 'The built-in voice'

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never
type Job = WithoutId<EspeakJob>

interface Pending {
  resolve(reply: EspeakReply): void
  reject(error: unknown): void
}

let worker: Worker | undefined
const pending = new Map<number, Pending>()
let nextId = 1
let voices: SpeechVoice[] | undefined

function engine(): Worker {
  if (worker) return worker
  const started = new Worker(WORKER_URL)
  started.unref()
  started.on('message', (reply: EspeakReply) => {
    const job = pending.get(reply.id)
    if (!job) return // its caller gave up (aborted) already
    done(reply.id)
    job.resolve(reply)
  })
  started.on('error', (error) => fail(started, error))
  started.on('exit', (code) => fail(started, new Error(`the eSpeak NG worker exited (${code})`)))
  worker = started
  return started
}

function done(id: number) {
  pending.delete(id)
  if (pending.size === 0) worker?.unref()
}

/** The worker died or could not start: every waiting job fails, the next call starts anew. */
function fail(failed: Worker, cause: unknown) {
  if (worker !== failed) return
  worker = undefined
  const jobs = [...pending.values()]
  pending.clear()
  for (const job of jobs) {
    job.reject(
      new SpeechError(
        'unavailable',
        `${LABEL} is not available (its engine stopped or could not start).`,
        {
          retryable: false,
          cause,
        },
      ),
    )
  }
}

function send(job: Job, signal: AbortSignal): Promise<EspeakReply> {
  signal.throwIfAborted()
  const id = nextId++
  return new Promise<EspeakReply>((resolve, reject) => {
    const onAbort = () => {
      // The worker stops at its next chunk of audio; nobody waits for its answer.
      if (job.type === 'synthesize') Atomics.store(new Int32Array(job.cancel), 0, 1)
      done(id)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    pending.set(id, {
      resolve(reply) {
        signal.removeEventListener('abort', onAbort)
        resolve(reply)
      },
      reject(error) {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    })
    const running = engine()
    running.ref()
    running.postMessage({ ...job, id })
  })
}

function unexpected(reply: EspeakReply): SpeechError {
  return new SpeechError('unavailable', `${LABEL} failed. Please try again.`, {
    retryable: false,
    cause: reply,
  })
}

/**
 * eSpeak NG's voices (about 140 languages and accents), listed once per process.
 * @throws SpeechError `unavailable` when the engine cannot start; the signal's reason on abort
 */
export async function espeakVoices(signal: AbortSignal): Promise<SpeechVoice[]> {
  if (voices) return voices
  const reply = await send({ type: 'voices' }, signal)
  if (reply.type !== 'voices') throw unexpected(reply)
  voices = reply.voices
  return voices
}

/**
 * Speaks SSML-escaped `text` with eSpeak NG: the audio (22050 Hz mono) and the word starts,
 * pauses and clause ends it reported.
 * @throws RangeError when eSpeak NG has no such voice
 * @throws SpeechError `unavailable` when the engine cannot start or fails; the signal's reason
 *   on abort (the synthesis stops at its next chunk)
 */
export async function espeakSynthesize(
  input: { text: string; voice: string; wordsPerMinute: number },
  signal: AbortSignal,
): Promise<{ pcm: Pcm; marks: EspeakMark[] }> {
  const cancel = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)
  const reply = await send({ type: 'synthesize', ...input, cancel }, signal)
  if (reply.type === 'unknown-voice') {
    throw new RangeError(`The built-in voice "${input.voice}" does not exist.`)
  }
  if (reply.type !== 'audio') throw unexpected(reply)
  return { pcm: { samples: reply.samples, sampleRate: reply.sampleRate }, marks: reply.marks }
}

/**
 * Stops the worker (for a graceful shutdown, or tests): waiting jobs fail with `unavailable`;
 * the next call starts a new one.
 */
export async function stopEspeak(): Promise<void> {
  const running = worker
  if (!running) return
  fail(running, new Error('stopped'))
  await running.terminate()
}
