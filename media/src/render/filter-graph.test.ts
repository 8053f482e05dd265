import { describe, expect, it } from 'vitest'
import { VIDEO_PRESETS, type PresetName } from './config.ts'
import { buildSegmentFilterGraph, type SegmentRenderSpec } from './filter-graph.ts'

const motion = { zoomFrom: 1, zoomTo: 1.1, panFrom: { x: 0.2, y: 0.5 }, panTo: { x: 0.8, y: 0.5 } }
const presets = Object.keys(VIDEO_PRESETS) as PresetName[]

/** How a still is read. */
function stillInput(path: string): string[] {
  return ['-i', path]
}

function scene(name: PresetName, overlays = 0): SegmentRenderSpec {
  const preset = VIDEO_PRESETS[name]
  return {
    preset,
    frames: 90,
    parts: [{ stillPath: '/w/still-0.jpg', motion, sceneFrames: 120, firstSceneFrame: 15 }],
    overlays: Array.from({ length: overlays }, (_, i) => ({
      imagePath: `/w/cue-${i}.png`,
      x: 0,
      y: preset.height - 270,
      startFrame: i * 30,
      endFrame: i * 30 + 30,
    })),
  }
}

function transition(name: PresetName): SegmentRenderSpec {
  return {
    preset: VIDEO_PRESETS[name],
    frames: 15,
    parts: [
      { stillPath: '/w/still-0.jpg', motion, sceneFrames: 120, firstSceneFrame: 105 },
      { stillPath: '/w/still-1.jpg', motion, sceneFrames: 80, firstSceneFrame: 0 },
    ],
    overlays: [],
  }
}

describe('buildSegmentFilterGraph', () => {
  describe.each(presets)('preset %s', (name) => {
    const { width, height, fps } = VIDEO_PRESETS[name]

    it.each([true, false])('renders a scene body (xfade available: %s)', (xfade) => {
      const { filterGraph, args } = buildSegmentFilterGraph(scene(name), { xfade }, '/c/out.mp4')
      expect(filterGraph).toBe(
        `[0:v]format=rgb24,zoompan=z='(1+0.1*(on+15)/119)':` +
          `x='(iw-iw/zoom)*(0.2+0.6*(on+15)/119)':y='(ih-ih/zoom)*0.5'` +
          `:d=90:s=${width}x${height}:fps=${fps},setsar=1,format=yuv420p[base];` +
          `[base]format=yuv420p[v]`,
      )
      expect(args.slice(0, 4)).toEqual([
        ...stillInput('/w/still-0.jpg'),
        '-filter_complex',
        filterGraph,
      ])
      const flag = (name: string) => args[args.lastIndexOf(name) + 1]
      expect(flag('-frames:v')).toBe('90')
      expect(flag('-r')).toBe(String(fps))
      expect(flag('-c:v')).toBe('libx264')
      expect(flag('-preset')).toBe('superfast')
      expect(flag('-x264-params')).toBe('mbtree=1:rc-lookahead=10')
      expect(flag('-pix_fmt')).toBe('yuv420p')
      expect(args).toContain('-an')
      expect(args.at(-1)).toBe('/c/out.mp4')
    })

    it('crossfades with xfade when the binary has it', () => {
      const { filterGraph, args } = buildSegmentFilterGraph(
        transition(name),
        { xfade: true },
        '/c/t.mp4',
      )
      expect(filterGraph).toContain(`zoompan=z='(1+0.1*(on+105)/119)'`)
      expect(filterGraph).toContain(`zoompan=z='(1+0.1*(on+0)/79)'`)
      expect(filterGraph).toContain('[from][to]xfade=transition=fade:duration=0.5:offset=0[base]')
      expect(filterGraph).not.toContain('overlay')
      expect(args.slice(0, 4)).toEqual([
        ...stillInput('/w/still-0.jpg'),
        ...stillInput('/w/still-1.jpg'),
      ])
    })

    it('crossfades by overlaying a fading alpha without xfade (ffmpeg 4.1)', () => {
      const { filterGraph } = buildSegmentFilterGraph(
        transition(name),
        { xfade: false },
        '/c/t.mp4',
      )
      expect(filterGraph).not.toContain('xfade')
      expect(filterGraph).toContain('[to]format=yuva420p,fade=t=in:s=0:n=15:alpha=1[toalpha]')
      expect(filterGraph).toContain(
        '[from][toalpha]overlay=x=0:y=0:format=yuv420:eof_action=pass[base]',
      )
    })

    it('lays subtitle images over their frame ranges, after the stills', () => {
      const { filterGraph, args } = buildSegmentFilterGraph(
        scene(name, 2),
        { xfade: true },
        '/c/s.mp4',
      )
      const y = height - 270
      expect(filterGraph).toContain(
        `[base][1:v]overlay=x=0:y=${y}:format=yuv420:enable='between(n,0,29)'[o0]`,
      )
      expect(filterGraph).toContain(
        `[o0][2:v]overlay=x=0:y=${y}:format=yuv420:enable='between(n,30,59)'[o1]`,
      )
      expect(filterGraph.endsWith('[o1]format=yuv420p[v]')).toBe(true)
      expect(args.slice(0, 6)).toEqual([
        ...stillInput('/w/still-0.jpg'),
        '-i',
        '/w/cue-0.png',
        '-i',
        '/w/cue-1.png',
      ])
    })
  })

  describe('clips (issue 22 item 4)', () => {
    const clipPart = {
      clipPath: '/w/clip.mp4',
      fit: 'cover' as const,
      timing: { kind: 'hold' as const },
      sceneFrames: 120,
      firstSceneFrame: 15,
    }
    const clipScene = (part: Partial<typeof clipPart> | object = {}): SegmentRenderSpec => ({
      preset: VIDEO_PRESETS['16:9'],
      frames: 90,
      parts: [{ ...clipPart, ...part } as SegmentRenderSpec['parts'][0]],
      overlays: [],
    })

    it('reads the clip as MP4 from a file, times it, then covers the frame with it', () => {
      const { filterGraph, args } = buildSegmentFilterGraph(clipScene(), { xfade: true }, '/o.mp4')
      expect(args.slice(0, 8)).toEqual([
        '-protocol_whitelist',
        'file',
        '-f',
        'mov',
        '-i',
        '/w/clip.mp4',
        '-filter_complex',
        filterGraph,
      ])
      expect(filterGraph).toBe(
        '[0:v]setpts=PTS-STARTPTS,fps=30,tpad=stop=-1:stop_mode=clone,' +
          'trim=start_frame=15:end_frame=105,setpts=PTS-STARTPTS,format=yuv420p,' +
          "scale=w='max(1920,ceil(1080*dar))':h='max(1080,ceil(1920/dar))',crop=1920:1080," +
          'setsar=1,format=yuv420p[base];[base]format=yuv420p[v]',
      )
      expect(filterGraph).not.toContain('zoompan')
    })

    it('slows a clip before resampling it to the frame rate', () => {
      const { filterGraph } = buildSegmentFilterGraph(
        clipScene({ timing: { kind: 'slow', factor: 2.2 } }),
        { xfade: true },
        '/o.mp4',
      )
      expect(filterGraph).toContain('[0:v]setpts=PTS-STARTPTS,setpts=PTS*2.2,fps=30,tpad=')
    })

    it('contains a clip over a small blurred, darkened copy of itself', () => {
      const { filterGraph } = buildSegmentFilterGraph(
        clipScene({ fit: 'contain' }),
        { xfade: true },
        '/o.mp4',
      )
      expect(filterGraph).toContain('split=2[baseback0][basefront0]')
      expect(filterGraph).toContain(
        "[baseback0]scale=w='max(240,ceil(134*dar))':h='max(134,ceil(240/dar))',crop=240:134," +
          "gblur=sigma=4,lutyuv=y='val*0.6'",
      )
      expect(filterGraph).toContain(
        "[basefront0]scale=w='min(1920,floor(1080*dar/2)*2)':h='min(1080,floor(1920/dar/2)*2)'",
      )
      expect(filterGraph).toContain("[baseback][basefront]overlay=x='(W-w)/2':y='(H-h)/2'")
    })

    it('crossfades a clip into a still, and refuses a relative clip path', () => {
      const spec = transition('16:9')
      const { filterGraph, args } = buildSegmentFilterGraph(
        { ...spec, parts: [{ ...clipPart, firstSceneFrame: 105 }, spec.parts[1]!] },
        { xfade: true },
        '/o.mp4',
      )
      expect(filterGraph).toContain('trim=start_frame=105:end_frame=120')
      expect(filterGraph).toContain('[1:v]format=rgb24,zoompan=')
      expect(filterGraph).toContain('[from][to]xfade=transition=fade')
      expect(args.slice(0, 8)).toEqual([
        ...['-protocol_whitelist', 'file', '-f', 'mov', '-i', '/w/clip.mp4'],
        ...stillInput('/w/still-1.jpg'),
      ])
      expect(() =>
        buildSegmentFilterGraph(clipScene({ clipPath: 'clip.mp4' }), { xfade: true }, '/o.mp4'),
      ).toThrow(/must be an absolute path/)
    })
  })

  it('refuses an empty segment and an overlay outside the frame', () => {
    expect(() =>
      buildSegmentFilterGraph({ ...scene('16:9'), frames: 0 }, { xfade: true }, '/o.mp4'),
    ).toThrow(RangeError)
    const spec = scene('16:9', 1)
    expect(() =>
      buildSegmentFilterGraph(
        { ...spec, overlays: [{ ...spec.overlays[0]!, y: 1080 }] },
        { xfade: true },
        '/o.mp4',
      ),
    ).toThrow(RangeError)
  })

  it('keeps a constant zoom and pan as plain numbers', () => {
    const still = {
      zoomFrom: 1.05,
      zoomTo: 1.05,
      panFrom: { x: 0.5, y: 0.5 },
      panTo: { x: 0.5, y: 0.5 },
    }
    const spec = scene('1:1')
    const { filterGraph } = buildSegmentFilterGraph(
      { ...spec, parts: [{ ...spec.parts[0], motion: still }] },
      { xfade: true },
      '/o.mp4',
    )
    expect(filterGraph).toContain(`zoompan=z='1.05':x='(iw-iw/zoom)*0.5':y='(ih-ih/zoom)*0.5'`)
  })
})
