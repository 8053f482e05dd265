/**
 * TTS speed: seconds of audio per second of synthesis for the builtin voice (eSpeak NG in
 * WebAssembly, a worker thread; issue 13 item 1) on a 6-scene narration of about 45 s, one
 * scene at a time as a render job does. The engine's start (worker, WebAssembly, voice data)
 * is timed apart, then ROUNDS rounds of the 6 scenes; the first round (V8 still compiling the
 * WebAssembly's hot code with its optimizing tier) and the median round are reported, with the
 * load average, since other work on the machine slows it.
 * Run: npm run tts-speed -w bench   (optional: ROUNDS)
 */
import { cpus, loadavg } from 'node:os'
import { createBuiltinSpeechProvider } from '../../media/src/speech/builtin.ts'
import { stopEspeak } from '../../media/src/speech/espeak.ts'
import { median } from './app-process.ts'
import { EXPLAINER_SCENES as SCENES } from './explainer-scenes.ts'

const ROUNDS = Number(process.argv[2] ?? 5)

const provider = createBuiltinSpeechProvider({ timeoutMs: 120_000 })
const signal = new AbortController().signal

const startedAt = performance.now()
await provider.synthesize({ text: 'Warming up.' }, signal)
const startupMs = performance.now() - startedAt

const rounds: { audioS: number; synthesisS: number }[] = []
for (let round = 0; round < ROUNDS; round++) {
  let audioMs = 0
  const t0 = performance.now()
  for (const text of SCENES) audioMs += (await provider.synthesize({ text }, signal)).durationMs
  rounds.push({ audioS: audioMs / 1000, synthesisS: (performance.now() - t0) / 1000 })
}
await stopEspeak()

const ratios = rounds.map((r) => r.audioS / r.synthesisS)
const words = SCENES.join(' ').split(/\s+/).length
const [one, five, fifteen] = loadavg().map((n) => n.toFixed(2))
console.log(
  `tts-speed: builtin voice (eSpeak NG, WebAssembly), ${SCENES.length} scenes, ${words} words`,
)
console.log(`  engine start (worker + WebAssembly + voice data): ${startupMs.toFixed(0)} ms`)
console.log(`  audio per round: ${rounds[0]!.audioS.toFixed(1)} s`)
console.log(
  `  synthesis per round: median ${median(rounds.map((r) => r.synthesisS)).toFixed(2)} s over ${ROUNDS} rounds`,
)
console.log(
  `  first round: ${ratios[0]!.toFixed(1)} s of audio per s of synthesis (V8 still tiering the WebAssembly up)`,
)
console.log(
  `  speed: median ${median(ratios).toFixed(1)} s of audio per s of synthesis (min ${Math.min(...ratios).toFixed(1)}, max ${Math.max(...ratios).toFixed(1)})`,
)
console.log(`  load average: ${one} ${five} ${fifteen} (1, 5, 15 min) on ${cpus().length} cores`)
