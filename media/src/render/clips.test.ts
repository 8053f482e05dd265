import { describe, expect, it } from 'vitest'
import { clipInputArgs, clipTiming, parseClipListing } from './clips.ts'

// What Debian's ffmpeg 5.1 prints for a clip, with the metadata before the stream listing.
const LISTING = [
  "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from '/w/clip.mp4':",
  '  Metadata:',
  '    major_brand     : isom',
  `    comment         : ${'{"workflow": 1} '.repeat(40)}`,
  '  Duration: 00:00:05.04, start: 0.000000, bitrate: 921 kb/s',
  '  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(progressive), 1280x720 [SAR 1:1 DAR 16:9], 839 kb/s, 24 fps, 24 tbr, 12288 tbn (default)',
  '  Stream #0:1[0x2](und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, mono, fltp, 69 kb/s (default)',
  "Output #0, null, to 'pipe:':",
  '  Stream #0:0(und): Audio: pcm_s16le, 44100 Hz',
].join('\n')

describe('parseClipListing', () => {
  it('reads the length and whether there is sound from the input listing only', () => {
    expect(parseClipListing(LISTING)).toEqual({ durationMs: 5040, hasAudio: true })
    const silent = LISTING.replace(/\n {2}Stream #0:1.*/, '')
    // The output's own audio stream does not count.
    expect(parseClipListing(silent)).toEqual({ durationMs: 5040, hasAudio: false })
    expect(parseClipListing(LISTING.replace('00:00:05.04', '01:02:03.50'))?.durationMs).toBe(
      3_723_500,
    )
  })

  it('finds nothing without a video stream or a length', () => {
    expect(parseClipListing(LISTING.replace(': Video:', ': Data:'))).toBeNull()
    expect(parseClipListing(LISTING.replace('Duration: 00:00:05.04', 'Duration: N/A'))).toBeNull()
    expect(parseClipListing(LISTING.replace('00:00:05.04', '00:00:00.00'))).toBeNull()
    expect(parseClipListing('')).toBeNull()
  })
})

describe('clipTiming', () => {
  it('plays a clip with at least the scene frames, and trims it', () => {
    expect(clipTiming(5_000, 150, 30, 'hold')).toEqual({ kind: 'play' })
    expect(clipTiming(10_000, 99, 30, 'slow')).toEqual({ kind: 'play' })
    // 4.99 s at 30 fps rounds to the scene's 150 frames.
    expect(clipTiming(4_990, 150, 30, 'slow')).toEqual({ kind: 'play' })
  })

  it('holds or slows a shorter clip to the scene length', () => {
    expect(clipTiming(1_500, 99, 30, 'hold')).toEqual({ kind: 'hold' })
    expect(clipTiming(1_500, 99, 30, 'slow')).toEqual({ kind: 'slow', factor: 2.2 })
    expect(clipTiming(3_000, 100, 30, 'slow')).toEqual({ kind: 'slow', factor: 1.111111 })
  })

  it('refuses lengths that are not positive', () => {
    expect(() => clipTiming(0, 99, 30, 'hold')).toThrow(RangeError)
    expect(() => clipTiming(1_000, 0, 30, 'hold')).toThrow(RangeError)
    expect(() => clipTiming(Number.NaN, 99, 30, 'hold')).toThrow(RangeError)
  })
})

describe('clipInputArgs', () => {
  it('reads files only, with the MP4/MOV demuxer, by absolute path', () => {
    expect(clipInputArgs('/w/clip.mp4')).toEqual([
      '-protocol_whitelist',
      'file',
      '-f',
      'mov',
      '-i',
      '/w/clip.mp4',
    ])
    expect(() => clipInputArgs('w/clip.mp4', "Scene 2's clip")).toThrow(
      /Scene 2's clip must be an absolute path/,
    )
  })
})
