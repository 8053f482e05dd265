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
