// Runs in a worker thread (see espeak.ts): one eSpeak NG instance, one job at a time.
import createEspeak from '@echogarden/espeak-ng-emscripten'
import { parentPort } from 'node:worker_threads'
import type { EspeakJob, EspeakMark, EspeakReply } from './espeak-protocol.ts'

const port = parentPort!
const espeak = new (await createEspeak()).eSpeakNGWorker()

function reply(message: EspeakReply, transfer: ArrayBuffer[] = []) {
  port.postMessage(message, transfer)
}

function synthesize(job: Extract<EspeakJob, { type: 'synthesize' }>) {
  const cancel = new Int32Array(job.cancel)
  if (Atomics.load(cancel, 0) !== 0) return reply({ id: job.id, type: 'cancelled' })
  if (espeak.set_voice(job.voice) !== 0) return reply({ id: job.id, type: 'unknown-voice' })
  espeak.set_rate(job.wordsPerMinute)
  const chunks: Int16Array[] = []
  const marks: EspeakMark[] = []
  let cancelled = false
  espeak.synthesize(job.text, (samples, events) => {
    if (samples && samples.length > 0) chunks.push(samples)
    for (const event of events) {
      const ms = event.audio_position
      if (event.type === 'word') marks.push({ type: 'word', position: event.text_position - 1, ms })
      else if (event.type === 'end')
        marks.push({ type: 'end', position: event.text_position - 1, ms })
      // A phoneme event without a name is a pause (between clauses, at the end).
      else if (event.type === 'phoneme' && !event.id) {
        marks.push({ type: 'pause', position: event.text_position - 1, ms })
      }
    }
    cancelled = Atomics.load(cancel, 0) !== 0
    return cancelled
  })
  if (cancelled) return reply({ id: job.id, type: 'cancelled' })
  const samples = new Int16Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    samples.set(chunk, offset)
    offset += chunk.length
  }
  reply({ id: job.id, type: 'audio', samples, sampleRate: espeak.samplerate, marks }, [
    samples.buffer,
  ])
}

port.on('message', (job: EspeakJob) => {
  try {
    if (job.type === 'voices') {
      const voices = espeak.list_voices().map((voice) => ({
        id: voice.identifier,
        name: voice.name,
        language: voice.languages[0]?.name,
      }))
      reply({ id: job.id, type: 'voices', voices })
    } else {
      synthesize(job)
    }
  } catch (error) {
    reply({ id: job.id, type: 'failed', message: String(error) })
  }
})
