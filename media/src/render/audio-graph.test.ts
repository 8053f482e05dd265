import { describe, expect, it } from 'vitest'
import {
  buildAudioMixGraph,
  buildAudioEncodeArgs,
  buildConcatList,
  buildJoinArgs,
  buildLevelPassArgs,
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
      // A music asset was an upload: FLAC and WAV demuxers only, from files only (issue 40).
      ...['-protocol_whitelist', 'file', '-format_whitelist', 'flac,wav'],
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

describe('buildAudioMixGraph with clip sounds (issue 22 item 4)', () => {
  const clips = planTimeline([{ narrationMs: 2_000 }, { narrationMs: 2_000 }, {}], { fps: 30 })
  const sample = (frame: number) => (frame * 48_000) / 30

  it('adds each clip after the music, in its scene, faded over its crossfades, ducked with the music', () => {
    const { inputs, graph } = buildAudioMixGraph({
      timeline: clips,
      narrationPaths: ['/w/n0.wav', '/w/n1.wav', null],
      musicPath: '/c/music.wav',
      clipSounds: [null, { path: '/w/clip.mp4', timing: { kind: 'hold' } }, null],
    })
    expect(inputs).toEqual([
      ...['-i', '/w/n0.wav', '-i', '/w/n1.wav'],
      ...['-stream_loop', '-1', '-protocol_whitelist', 'file', '-format_whitelist', 'flac,wav'],
      ...['-i', '/c/music.wav'],
      ...['-protocol_whitelist', 'file', '-f', 'mov', '-i', '/w/clip.mp4'],
    ])
    const scene = clips.scenes[1]!
    const fade = sample(15)
    const length = sample(scene.frames)
    expect(graph).toContain(
      '[3:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,asetpts=PTS-STARTPTS,' +
        `apad,atrim=end_sample=${length},afade=t=in:ss=0:ns=${fade},` +
        `afade=t=out:ss=${length - fade}:ns=${fade},` +
        `adelay=${sample(scene.startFrame)}S|${sample(scene.startFrame)}S,` +
        `apad,atrim=end_sample=${sample(clips.totalFrames)}[clip1]`,
    )
    expect(graph).toContain('[clip1]volume=-6dB[clips]')
    expect(graph).toContain(
      '[music][clips]amix=inputs=2:duration=first:dropout_transition=0,volume=2[bed]',
    )
    expect(graph).toContain('[bed][voicekey]sidechaincompress=')
    expect(graph.endsWith('[mix]')).toBe(true)
  })

  it('slows a slowed clip’s sound with it, and sums several clips at full level', () => {
    const { graph } = buildAudioMixGraph({
      timeline: clips,
      narrationPaths: [null, null, null],
      musicPath: null,
      clipSounds: [
        { path: '/w/a.mp4', timing: { kind: 'slow', factor: 3 } },
        null,
        { path: '/w/b.mp4', timing: { kind: 'play' } },
      ],
    })
    expect(graph).toContain('asetpts=PTS-STARTPTS,atempo=0.5,atempo=0.666667,apad,')
    // The first scene fades only out, the last only in; neither is delayed but the last.
    expect(graph).not.toMatch(/\[0:a\][^;]*afade=t=in/)
    expect(graph).not.toMatch(/\[0:a\][^;]*adelay/)
    expect(graph).toMatch(/\[1:a\][^;]*afade=t=in[^;]*adelay/)
    expect(graph).not.toMatch(/\[1:a\][^;]*afade=t=out/)
    expect(graph).toContain(
      '[clip0][clip2]amix=inputs=2:duration=longest:dropout_transition=0,volume=2,volume=-6dB[clips]',
    )
    expect(graph).toContain('[clips]anull[bed]')
  })
})

describe('loudness passes', () => {
  it('measures in pass 1 (EBU R128 meter), levels in pass 2 and encodes in pass 3', () => {
    const pass1 = buildMixPassArgs(
      { timeline, narrationPaths: ['/a.wav', null, null], musicPath: null },
      '/w/mix.wav',
    )
    expect(pass1.join(' ')).toContain('[mixmeasure]ebur128[measured]')
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
    const pass2 = buildLevelPassArgs('/w/mix.wav', 9.1, 436_800, '/w/level.wav')
    const graph = pass2[pass2.indexOf('-filter_complex') + 1]!
    expect(graph).toBe(
      '[0:a]volume=9.10dB,alimiter=limit=0.7943:attack=5:release=50:level=disabled,' +
        'atrim=start_sample=239,asetpts=PTS-STARTPTS,apad=pad_len=239,atrim=end_sample=436800,' +
        'asplit=2[out][measure];[measure]ebur128[measured]',
    )
    expect(pass2.join(' ')).toContain('-map [out] -c:a pcm_f32le -f wav /w/level.wav')
    const pass3 = buildAudioEncodeArgs('/w/level.wav', '/w/audio.m4a')
    expect(pass3.join(' ')).toContain(
      '-c:a aac -aac_coder fast -b:a 192000 -ar 48000 -f mp4 /w/audio.m4a',
    )
    // The level pass measures without the true peak.
    expect(
      parseLoudnessMeasurement(stderr.replace(/\n {2}True peak:[\s\S]*$/, '')).truePeak,
    ).toBeNaN()
    expect(() => parseLoudnessMeasurement('no summary here')).toThrow()
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
