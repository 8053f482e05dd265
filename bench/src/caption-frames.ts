/**
 * Frames of each caption style (issue 24 item 2): one offline scene (a builtin storyboard
 * frame, the builtin eSpeak voice and its own word timings) rendered once per style by the
 * renderer the render job uses, then one frame taken from each video by ffmpeg at the same
 * moment, so the three looks can be compared by eye.
 * Run: npm run caption-frames -w bench -- [out dir, default ./caption-frames] [seconds, 2.2]
 * Writes <style>.mp4 and <style>.png for classic, word-highlight and bold.
 */
import { execFileSync } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { createBuiltinImageProvider } from '@reelgraph/api'
import {
  CAPTION_STYLES,
  DEFAULT_CUT,
  DEFAULT_TIMELINE_SETTINGS,
  type FilmCut,
  planFilm,
} from '@reelgraph/shared'
import {
  createSpeechProvider,
  filmPieces,
  findFfmpeg,
  renderVideo,
  stopEspeak,
} from '../../media/src/index.ts'

const out = resolve(process.argv[2] ?? 'caption-frames')
const atSeconds = Number(process.argv[3] ?? 2.2)
await mkdir(out, { recursive: true })
const signal = AbortSignal.timeout(120_000)
const text = 'Seven bright lanterns float across the quiet harbour tonight.'
const narration = await createSpeechProvider({ provider: 'builtin' }).synthesize({ text }, signal)
const image = await createBuiltinImageProvider().generateImage(
  {
    projectId: 1,
    modelVersionId: 'storyboard-v1',
    prompt: 'Wide shot of lanterns over a harbour at night',
    negativePrompt: '',
    width: 1920,
    height: 1080,
    numInferenceSteps: 25,
    guidanceScale: 7.5,
    seed: 7,
  },
  signal,
)
const scene = { nodeId: 'n', sceneNumber: '1', narration: text, imageUrl: null, clip: null }
const cut: FilmCut = {
  id: 'scene:n',
  sceneId: 'n',
  ...DEFAULT_CUT,
  scene,
  place: 'a0',
  narrated: true,
}
const ffmpeg = findFfmpeg()
for (const style of CAPTION_STYLES) {
  const settings = { ...DEFAULT_TIMELINE_SETTINGS, captionStyle: style }
  const plan = planFilm([cut], settings, () => ({
    clipMs: null,
    narrationMs: narration.durationMs,
  }))
  const video = join(out, `${style}.mp4`)
  await renderVideo({
    scenes: [{ imageBytes: image.bytes, narrationWav: narration.wav, words: narration.words }],
    film: { pieces: filmPieces(plan, settings, () => 0) },
    captions: settings,
    preset: '16:9',
    cacheDir: join(out, '.cache'),
    workDir: out,
    outputPath: video,
  })
  const frame = join(out, `${style}.png`)
  execFileSync(ffmpeg.path, [
    ...['-v', 'error', '-y', '-ss', String(atSeconds), '-i', video],
    ...['-frames:v', '1', frame],
  ])
  console.log(`${style}: ${frame}`)
}
stopEspeak()
