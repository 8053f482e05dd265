import {
  AUDIO_BITRATE_BPS,
  AUDIO_SAMPLE_RATE_HZ,
  CLIP_SOUND_GAIN_DB,
  DUCKING,
  LIMITER_ATTACK_MS,
  LIMITER_CEILING_DBFS,
  MUSIC_GAIN_DB,
  NARRATION_LEAD_IN_MS,
} from './config.ts'
import type { Timeline } from './timeline.ts'
import { absolutePath } from './absolute-path.ts'
import { pinnedInputArgs } from '../input/external-input.ts'
import { clipInputArgs, type ClipTiming } from './clips.ts'

/** Inputs of the audio mix: per scene its narration WAV path or `null`, and the music loop. */
export interface AudioMixInput {
  timeline: Timeline
  narrationPaths: readonly (string | null)[]
  /** A loop (WAV) repeated under the whole video, ducked under the voice; `null` for none. */
  musicPath: string | null
  /**
   * How the music plays (issue 24 item 1, the timeline's settings): its level, fades, and how
   * far it ducks while a narration speaks; absent: today's (`MUSIC_GAIN_DB`, ducked by
   * `sidechaincompress` with the clips' sound).
   */
  musicMix?: MusicMix
  /**
   * Per scene, the clip whose own sound is mixed under the voice (issue 22 item 4), or
   * `null`; absent: none.
   */
  clipSounds?: readonly (ClipSoundTrack | null)[]
}

/** The music's level, fades and ducking (issue 24 item 1). */
export interface MusicMix {
  /** Level, 0..1 of full scale (linear gain) before ducking. */
  volume: number
  fadeInMs: number
  fadeOutMs: number
  /** How far the music drops while a narration speaks, in dB (0: not ducked). */
  duckDb: number
}

/** How long the music takes to duck before a narration and to come back after it, in s. */
export const DUCK_RAMP_S = 0.25

/** A number for an ffmpeg expression: no exponent, at most 6 decimals. */
const num = (n: number) => String(Math.round(n * 1e6) / 1e6)

/**
 * The `volume` expression that ducks the music by `duckDb` while each narration speaks
 * (pure): the gain ramps down over {@link DUCK_RAMP_S} before a narration's first sample
 * and back up over as long after its last, so the drop is exactly `duckDb` under the voice
 * (a compressor's depends on the voice's level). `t` is the music's time in seconds.
 * @param spans each narration's [start, end] in seconds of the video
 */
export function duckingExpression(spans: readonly [number, number][], duckDb: number): string {
  if (duckDb <= 0 || spans.length === 0) return '1'
  const r = DUCK_RAMP_S
  const weight = spans
    .map(
      ([start, end]) =>
        `min(clip((t-${num(start - r)})/${r},0,1),clip((${num(end + r)}-t)/${r},0,1))`,
    )
    .reduce((a, b) => `max(${a},${b})`)
  return `pow(10,-${num(duckDb)}*${weight}/20)`
}

/** A clip's sound in the mix: the clip file (with an audio stream) and its timing. */
export interface ClipSoundTrack {
  path: string
  /** As its picture's: a slowed clip's sound is slowed with it (`atempo`, pitch kept). */
  timing: ClipTiming
  /** The cut's in point in the clip, in ms (issue 24 item 1); absent: its start. */
  inMs?: number
}

/** The EBU R128 measurement of pass 1 (ffmpeg's `ebur128` meter), in LUFS, LU and dBTP. */
export interface LoudnessMeasurement {
  /** Integrated loudness, LUFS (-70 for silence). */
  integrated: number
  /** The integrated measurement's relative gating threshold, LUFS. */
  threshold: number
  /** Loudness range, LU. */
  range: number
  /** True peak, dBTP (-Infinity for silence; NaN when not measured). */
  truePeak: number
}

/** Sample at which a frame starts, rounded once per boundary so slots never drift. */
const frameSample = (frame: number, fps: number) => Math.round((frame * AUDIO_SAMPLE_RATE_HZ) / fps)

/**
 * The video's length in audio samples at `AUDIO_SAMPLE_RATE_HZ`.
 * @see issue 13 item 3
 */
export const timelineSamples = (timeline: Timeline) =>
  frameSample(timeline.totalFrames, timeline.fps)

/** `atempo` filters that slow audio by `factor` (>= 1): each takes 0.5 at least. */
function slowTempo(factor: number): string[] {
  const filters: string[] = []
  let tempo = 1 / factor
  while (tempo < 0.5) {
    filters.push('atempo=0.5')
    tempo /= 0.5
  }
  if (Math.abs(tempo - 1) > 1e-6) filters.push(`atempo=${tempo.toFixed(6)}`)
  return filters
}

/**
 * The mix's filter graph (pure), ending at `[mix]` (48 kHz stereo float): the voice track
 * is each scene's slot (from its start to the next scene's start) holding its narration
 * `NARRATION_LEAD_IN_MS` in, concatenated sample-exactly; the bed under it is the music loop,
 * if any, cut to the video's length and lowered by `MUSIC_GAIN_DB`, and the clips' own sound,
 * if any (issue 22 item 4): each clip's sound from its scene's first sample for as long as
 * the scene is visible (slowed with a slowed clip, silent after a held clip's end), faded in
 * and out over the scene's crossfades as its picture is, lowered by `CLIP_SOUND_GAIN_DB`.
 * The bed is ducked under the voice with `sidechaincompress`, then mixed with it. Inputs are
 * the narrations in scene order, then the music, then the clips in scene order.
 * @see issue 13 item 3, issue 22 item 4
 */
export function buildAudioMixGraph(input: AudioMixInput): { inputs: string[]; graph: string } {
  const { timeline, narrationPaths, musicPath } = input
  const { fps, scenes } = timeline
  const inputs: string[] = []
  let inputCount = 0
  const addInput = (args: string[]) => {
    inputs.push(...args)
    return inputCount++
  }
  const chains: string[] = []
  scenes.forEach((scene, i) => {
    const slotEnd = i + 1 < scenes.length ? scenes[i + 1]!.startFrame : timeline.totalFrames
    const samples = frameSample(slotEnd, fps) - frameSample(scene.startFrame, fps)
    const path = narrationPaths[i] ?? null
    if (path === null) {
      chains.push(
        `anullsrc=r=${AUDIO_SAMPLE_RATE_HZ}:cl=mono,atrim=end_sample=${samples}[slot${i}]`,
      )
    } else {
      const index = addInput(['-i', absolutePath(path, `Scene ${i + 1}'s narration`)])
      // Where the plan puts the voice in its slot: today's lead-in, or the film plan's.
      const offsetMs =
        scene.narrationStartMs === null
          ? NARRATION_LEAD_IN_MS
          : Math.max(0, Math.round(scene.narrationStartMs - scene.startMs))
      chains.push(
        `[${index}:a]aresample=${AUDIO_SAMPLE_RATE_HZ},` +
          `aformat=sample_fmts=fltp:channel_layouts=mono,adelay=${offsetMs},` +
          `apad,atrim=end_sample=${samples}[slot${i}]`,
      )
    }
  })
  chains.push(
    `${scenes.map((_, i) => `[slot${i}]`).join('')}concat=n=${scenes.length}:v=0:a=1[voice]`,
  )
  const total = frameSample(timeline.totalFrames, fps)
  const beds: string[] = []
  if (musicPath !== null) {
    // A music asset was an upload: FLAC or WAV demuxers only (issue 40 item 4).
    const music = addInput([
      '-stream_loop',
      '-1',
      ...pinnedInputArgs(musicPath, 'stored-music', 'The music loop'),
    ])
    const mix = input.musicMix
    const head =
      `[${music}:a]aresample=${AUDIO_SAMPLE_RATE_HZ},` +
      `aformat=sample_fmts=fltp:channel_layouts=stereo,atrim=end_sample=${total}`
    if (!mix) {
      chains.push(`${head},volume=${MUSIC_GAIN_DB}dB[music]`)
      beds.push('music')
    } else {
      const totalS = total / AUDIO_SAMPLE_RATE_HZ
      const fadeIn = Math.min(mix.fadeInMs / 1000, totalS)
      const fadeOut = Math.min(mix.fadeOutMs / 1000, totalS)
      const spans = scenes.flatMap((scene): [number, number][] =>
        scene.narrationStartMs === null || scene.narrationMs <= 0
          ? []
          : [[scene.narrationStartMs / 1000, (scene.narrationStartMs + scene.narrationMs) / 1000]],
      )
      const filters = [
        `volume=${num(mix.volume)}`,
        ...(fadeIn > 0 ? [`afade=t=in:st=0:d=${num(fadeIn)}`] : []),
        ...(fadeOut > 0 ? [`afade=t=out:st=${num(totalS - fadeOut)}:d=${num(fadeOut)}`] : []),
        `volume='${duckingExpression(spans, mix.duckDb)}':eval=frame`,
      ]
      // Ducked by the plan, not by a compressor: it is not one of the beds.
      chains.push(`${head},${filters.join(',')}[musicducked]`)
    }
  }
  const clipTracks: string[] = []
  scenes.forEach((scene, i) => {
    const clip = input.clipSounds?.[i]
    if (!clip) return
    const index = addInput(clipInputArgs(clip.path, `Scene ${i + 1}'s clip`))
    const start = frameSample(scene.startFrame, fps)
    const length = frameSample(scene.startFrame + scene.frames, fps) - start
    const before = scenes[i - 1]
    const after = scenes[i + 1]
    const fadeIn = before ? frameSample(before.startFrame + before.frames, fps) - start : 0
    const fadeOut = after ? start + length - frameSample(after.startFrame, fps) : 0
    const filters = [
      `aresample=${AUDIO_SAMPLE_RATE_HZ}`,
      'aformat=sample_fmts=fltp:channel_layouts=stereo',
      ...(clip.inMs ? [`atrim=start=${num(clip.inMs / 1000)}`] : []),
      'asetpts=PTS-STARTPTS',
      ...(clip.timing.kind === 'slow' ? slowTempo(clip.timing.factor) : []),
      'apad',
      `atrim=end_sample=${length}`,
      ...(fadeIn > 0 ? [`afade=t=in:ss=0:ns=${fadeIn}`] : []),
      ...(fadeOut > 0 ? [`afade=t=out:ss=${length - fadeOut}:ns=${fadeOut}`] : []),
      ...(start > 0 ? [`adelay=${start}S|${start}S`] : []),
      'apad',
      `atrim=end_sample=${total}`,
    ]
    chains.push(`[${index}:a]${filters.join(',')}[clip${i}]`)
    clipTracks.push(`clip${i}`)
  })
  if (clipTracks.length > 0) {
    // Every track is as long as the video, so amix divides each by their number throughout;
    // the volume puts the sum back (amix's normalize=0 needs ffmpeg 4.4).
    const n = clipTracks.length
    chains.push(
      n === 1
        ? `[${clipTracks[0]}]volume=${CLIP_SOUND_GAIN_DB}dB[clips]`
        : `${clipTracks.map((t) => `[${t}]`).join('')}amix=inputs=${n}:duration=longest:` +
            `dropout_transition=0,volume=${n},volume=${CLIP_SOUND_GAIN_DB}dB[clips]`,
    )
    beds.push('clips')
  }
  const planned = musicPath !== null && input.musicMix ? 'musicducked' : null
  if (beds.length === 0 && !planned) {
    chains.push(`[voice]pan=stereo|c0=c0|c1=c0[mix]`)
  } else if (beds.length === 0) {
    chains.push(
      `[voice]pan=stereo|c0=c0|c1=c0[voicestereo]`,
      // amix halves both inputs; loudness normalization comes after, so the level is moot.
      `[voicestereo][${planned}]amix=inputs=2:duration=first:dropout_transition=0[mix]`,
    )
  } else {
    chains.push(
      beds.length === 1
        ? `[${beds[0]}]anull[bed]`
        : `[music][clips]amix=inputs=2:duration=first:dropout_transition=0,volume=2[bed]`,
      `[voice]asplit=2[voicemix][voicekey]`,
      `[bed][voicekey]sidechaincompress=threshold=${DUCKING.threshold}:ratio=${DUCKING.ratio}` +
        `:attack=${DUCKING.attackMs}:release=${DUCKING.releaseMs}[ducked]`,
      `[voicemix]pan=stereo|c0=c0|c1=c0[voicestereo]`,
      // amix halves both inputs; loudness normalization comes after, so the level is moot.
      planned
        ? `[voicestereo][ducked][${planned}]amix=inputs=3:duration=first:dropout_transition=0[mix]`
        : `[voicestereo][ducked]amix=inputs=2:duration=first:dropout_transition=0[mix]`,
    )
  }
  return { inputs, graph: chains.join(';') }
}

/**
 * Pass 1 of the loudness normalization (pure): mixes the audio once into `mixPath` (32-bit
 * float WAV, 48 kHz stereo) and, from the same mix, measures it with ffmpeg's EBU R128 meter
 * (`ebur128`, integrated loudness), which prints its summary on stderr at `info` level. The
 * meter costs a tenth of `loudnorm`'s own analysis.
 * @see issue 13 item 3
 */
export function buildMixPassArgs(input: AudioMixInput, mixPath: string): string[] {
  const { inputs, graph } = buildAudioMixGraph(input)
  return [
    ...inputs,
    '-filter_complex',
    `${graph};[mix]asplit=2[mixout][mixmeasure];[mixmeasure]ebur128[measured]`,
    '-map',
    '[mixout]',
    '-c:a',
    'pcm_f32le',
    '-f',
    'wav',
    absolutePath(mixPath, 'The audio mix'),
    '-map',
    '[measured]',
    '-f',
    'null',
    '-',
  ]
}

/**
 * Reads the `ebur128` summary (the last one) from ffmpeg's stderr.
 * @throws Error when stderr holds none.
 * @see issue 13 item 3
 */
export function parseLoudnessMeasurement(stderr: string): LoudnessMeasurement {
  const at = stderr.lastIndexOf('Summary:')
  if (at < 0) throw new Error('ffmpeg printed no ebur128 summary')
  const summary = stderr.slice(at)
  const value = (pattern: RegExp) => {
    const match = pattern.exec(summary)
    if (!match) throw new Error(`ebur128 summary without ${String(pattern)}`)
    return match[1] === '-inf' ? -Infinity : Number(match[1])
  }
  const number = '(-?[\\d.]+|-inf)'
  return {
    integrated: value(new RegExp(`I:\\s+${number} LUFS`)),
    threshold: value(new RegExp(`Integrated loudness:[\\s\\S]*?Threshold:\\s+${number} LUFS`)),
    range: value(new RegExp(`LRA:\\s+${number} LU`)),
    truePeak: /Peak:/.test(summary) ? value(new RegExp(`Peak:\\s+${number} dBFS`)) : NaN,
  }
}

/**
 * Pass 2 (pure): the mix gained by `gainDb` (one gain for the whole video: no pumping), its
 * peaks caught by a lookahead limiter (`alimiter` at `LIMITER_CEILING_DBFS`, its delay taken
 * back so the audio stays on the picture), written to `outputPath` (float WAV, as long as
 * the mix: `samples`) and measured again (`ebur128`) on the way.
 * @see issue 13 item 3
 */
export function buildLevelPassArgs(
  mixPath: string,
  gainDb: number,
  samples: number,
  outputPath: string,
): string[] {
  const ceiling = 10 ** (LIMITER_CEILING_DBFS / 20)
  // alimiter delays by its lookahead, one sample short of the attack (measured on 4.1 and 5.1).
  const delay = Math.round((LIMITER_ATTACK_MS / 1000) * AUDIO_SAMPLE_RATE_HZ) - 1
  return [
    '-i',
    absolutePath(mixPath, 'The audio mix'),
    '-filter_complex',
    `[0:a]volume=${gainDb.toFixed(2)}dB,` +
      `alimiter=limit=${ceiling.toFixed(4)}:attack=${LIMITER_ATTACK_MS}:` +
      `release=${LIMITER_ATTACK_MS * 10}:level=disabled,` +
      `atrim=start_sample=${delay},asetpts=PTS-STARTPTS,apad=pad_len=${delay},` +
      `atrim=end_sample=${samples},asplit=2[out][measure];[measure]ebur128[measured]`,
    '-map',
    '[out]',
    '-c:a',
    'pcm_f32le',
    '-f',
    'wav',
    absolutePath(outputPath, 'The levelled audio'),
    '-map',
    '[measured]',
    '-f',
    'null',
    '-',
  ]
}

/**
 * Pass 3 (pure): the levelled mix encoded as AAC at 48 kHz stereo into `outputPath` (M4A).
 * @see issue 13 item 3
 */
export function buildAudioEncodeArgs(inputPath: string, outputPath: string): string[] {
  return [
    '-i',
    absolutePath(inputPath, 'The levelled audio'),
    '-af',
    `aformat=sample_fmts=fltp:sample_rates=${AUDIO_SAMPLE_RATE_HZ}:channel_layouts=stereo`,
    '-c:a',
    'aac',
    // The fast coder: 40% less CPU than twoloop on narration over music; at 192 kb/s no
    // audible difference.
    '-aac_coder',
    'fast',
    '-b:a',
    String(AUDIO_BITRATE_BPS),
    '-ar',
    String(AUDIO_SAMPLE_RATE_HZ),
    '-f',
    'mp4',
    absolutePath(outputPath, 'The encoded audio'),
  ]
}

/** Options of {@link buildJoinArgs}. */
export interface JoinInput {
  /** The concat demuxer's list of segments (`ffconcat version 1.0`). */
  concatListPath: string
  /** The AAC track of pass 2. */
  audioPath: string
  durationMs: number
  outputPath: string
}

/**
 * The join (pure): the segments by stream copy (concat demuxer) and the AAC track by stream
 * copy, cut to the video's length, as MP4 with `+faststart` (the index first, so playback
 * starts before the whole file is downloaded). Nothing is encoded.
 * @see issue 13 item 3
 */
export function buildJoinArgs(input: JoinInput): string[] {
  return [
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    absolutePath(input.concatListPath, 'The concat list'),
    '-i',
    absolutePath(input.audioPath, 'The audio track'),
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-c',
    'copy',
    '-t',
    (input.durationMs / 1000).toFixed(6),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    absolutePath(input.outputPath, 'The video'),
  ]
}

/**
 * The concat demuxer's list (pure). Each file carries its exact duration, so the demuxer
 * does not derive the next start from container durations (that drifts by a few ticks per
 * segment with B-frames). The demuxer reads a relative entry against the list's own folder,
 * so every entry must be absolute.
 * @throws RenderError `invalid-input` for a relative path
 * @see issue 13 item 3, issue 20 item 1
 */
export function buildConcatList(segments: readonly { path: string; durationS: number }[]): string {
  const quote = (path: string) =>
    `'${absolutePath(path, 'A concat list entry').replace(/'/g, `'\\''`)}'`
  return [
    'ffconcat version 1.0',
    ...segments.flatMap((s) => [`file ${quote(s.path)}`, `duration ${s.durationS.toFixed(6)}`]),
    '',
  ].join('\n')
}
