import { describe, expect, it } from 'vitest'
import {
  buildAudioMixGraph,
  buildAudioEncodeArgs,
  buildConcatList,
  buildJoinArgs,
  buildMixPassArgs,
  parseLoudnessMeasurement,
} from './audio-graph.ts'
import { planTimeline } from './timeline.ts'

const timeline = planTimeline([{ narrationMs: 2_000 }, {}, { narrationMs: 1_500 }], { fps: 30 })

describe('buildAudioMixGraph', () => {
  it('numbers inputs in order: narrations present, then the music loop', () => {
    const { inputs, graph } = buildAudioMixGraph({
      timeline,
      narrationPaths: ['/w/n0.wav', null, '/w/n2.wav'],
      musicPath: '/c/music.wav',
    })
    expect(inputs).toEqual([
      '-i',
      '/w/n0.wav',
      '-i',
      '/w/n2.wav',
      '-stream_loop',
      '-1',
      '-i',
      '/c/music.wav',
    ])
    expect(graph).toContain('[0:a]aresample=48000')
    expect(graph).toContain('[1:a]aresample=48000')
    expect(graph).toContain('[2:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo')
    expect(graph).toContain('anullsrc=r=48000:cl=mono')
    expect(graph).toContain('[bed][voicekey]sidechaincompress=')
    expect(graph.endsWith('[mix]')).toBe(true)
  })

  it('cuts the voice into slots that add up to the video, sample-exactly', () => {
    const { graph } = buildAudioMixGraph({
      timeline,
      narrationPaths: ['/w/n0.wav', null, '/w/n2.wav'],
      musicPath: null,
    })
    const slots = [...graph.matchAll(/end_sample=(\d+)\[slot\d\]/g)].map((m) => Number(m[1]))
    expect(slots).toHaveLength(3)
    expect(slots.reduce((a, b) => a + b)).toBe((timeline.totalFrames * 48_000) / 30)
    expect(slots[0]).toBe(((timeline.scenes[1]!.startFrame - 0) * 48_000) / 30)
    expect(graph).toContain('adelay=600,')
    expect(graph).toContain('[voice]pan=stereo|c0=c0|c1=c0[mix]')
    expect(graph).not.toContain('sidechaincompress')
  })
})

describe('loudness passes', () => {
  it('measures in pass 1 (EBU R128 meter) and applies the measurement linearly in pass 2', () => {
    const pass1 = buildMixPassArgs(
      { timeline, narrationPaths: ['/a.wav', null, null], musicPath: null },
      '/w/mix.wav',
    )
    expect(pass1.join(' ')).toContain('[mixmeasure]ebur128=peak=true[measured]')
    expect(pass1).toContain('/w/mix.wav')
    const stderr = [
      '[Parsed_ebur128_0 @ 0x1] t: 9.1 TARGET:-23 LUFS M: -17.4 S: -16.3 I: -14.0 LUFS LRA: 4.4 LU',
      '[Parsed_ebur128_0 @ 0x1] Summary:',
      '',
      '  Integrated loudness:',
      '    I:         -23.1 LUFS',
      '    Threshold: -33.5 LUFS',
      '',
      '  Loudness range:',
      '    LRA:         3.4 LU',
      '    Threshold: -43.0 LUFS',
      '    LRA low:   -25.0 LUFS',
      '    LRA high:  -21.6 LUFS',
      '',
      '  True peak:',
      '    Peak:       -4.2 dBFS',
    ].join('\n')
    const measurement = parseLoudnessMeasurement(stderr)
    expect(measurement).toEqual({ integrated: -23.1, threshold: -33.5, range: 3.4, truePeak: -4.2 })
    const pass2 = buildAudioEncodeArgs('/w/mix.wav', measurement, '/w/audio.m4a')
    const graph = pass2[pass2.indexOf('-af') + 1]!
    expect(graph).toContain('loudnorm=I=-14:TP=-1.5:LRA=11:measured_I=-23.1:measured_TP=-4.2')
    expect(graph).toContain('measured_LRA=3.4:measured_thresh=-33.5:offset=0:linear=true')
    expect(pass2.join(' ')).toContain('-c:a aac -b:a 192000 -ar 48000 -f mp4 /w/audio.m4a')
    expect(() => parseLoudnessMeasurement('no summary here')).toThrow()
  })

  it('leaves a silent mix as it is', () => {
    const args = buildAudioEncodeArgs('/w/mix.wav', null, '/w/audio.m4a')
    expect(args[args.indexOf('-af') + 1]).toMatch(/^aformat=/)
  })
})

describe('buildJoinArgs', () => {
  it('copies the segments and the audio, cut to the length, index first', () => {
    expect(
      buildJoinArgs({
        concatListPath: '/w/list.ffconcat',
        audioPath: '/w/audio.m4a',
        durationMs: 9_100,
        outputPath: '/w/out.mp4',
      }).join(' '),
    ).toBe(
      '-f concat -safe 0 -i /w/list.ffconcat -i /w/audio.m4a -map 0:v -map 1:a -c copy ' +
        '-t 9.100000 -movflags +faststart -f mp4 /w/out.mp4',
    )
  })
})

describe('buildConcatList', () => {
  it('quotes paths and gives each segment its exact duration', () => {
    expect(
      buildConcatList([
        { path: "/c/it's.mp4", durationS: 3.1 },
        { path: '/c/b.mp4', durationS: 0.5 },
      ]),
    ).toBe(
      "ffconcat version 1.0\nfile '/c/it'\\''s.mp4'\nduration 3.100000\nfile '/c/b.mp4'\nduration 0.500000\n",
    )
  })
})
