import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildConcatList, buildJoinArgs, buildMixPassArgs } from './audio-graph.ts'
import { buildSegmentFilterGraph } from './filter-graph.ts'
import { kenBurnsMotion } from './motion.ts'
import { VIDEO_PRESETS } from './config.ts'
import { renderVideo } from './render-video.ts'
import { planTimeline } from './timeline.ts'

// ffmpeg reads a relative concat entry against the list's folder and a relative input
// against its own working directory: the newcomer's relative DATA_DIR broke every render
// this way (issue 20 item 1). Relative paths are refused before ffmpeg sees them.

const motion = kenBurnsMotion('seed')
const part = (stillPath: string) => ({ stillPath, motion, sceneFrames: 30, firstSceneFrame: 0 })
const relative = 'data/render-cache/segments/a.mp4'

describe('no relative path reaches ffmpeg (issue 20 item 1)', () => {
  it('the concat list refuses a relative entry, and takes absolute ones', () => {
    expect(() => buildConcatList([{ path: relative, durationS: 1 }])).toThrow(
      /A concat list entry must be an absolute path, not "data\/render-cache/,
    )
    expect(buildConcatList([{ path: `/srv/${relative}`, durationS: 1 }])).toContain(
      `file '/srv/${relative}'`,
    )
  })

  it('a segment filter graph refuses a relative still, subtitle image or output', () => {
    const spec = { preset: VIDEO_PRESETS['16:9'], frames: 30, parts: [part('/w/s.jpg')] as const }
    const overlay = { x: 0, y: 0, startFrame: 0, endFrame: 10 }
    expect(() =>
      buildSegmentFilterGraph(
        { ...spec, parts: [part('w/s.jpg')], overlays: [] },
        { xfade: true },
        '/o.mp4',
      ),
    ).toThrow(/A still must be an absolute path/)
    expect(() =>
      buildSegmentFilterGraph(
        { ...spec, overlays: [{ ...overlay, imagePath: 'cue.png' }] },
        { xfade: true },
        '/o.mp4',
      ),
    ).toThrow(/A subtitle image must be an absolute path/)
    expect(() =>
      buildSegmentFilterGraph({ ...spec, overlays: [] }, { xfade: true }, 'o.mp4'),
    ).toThrow(/A segment must be an absolute path/)
  })

  it('the audio mix and the join refuse relative inputs', () => {
    const timeline = planTimeline([{ narrationMs: 1000 }], { fps: 30 })
    expect(() =>
      buildMixPassArgs({ timeline, narrationPaths: ['n.wav'], musicPath: null }, '/m.wav'),
    ).toThrow(/Scene 1's narration must be an absolute path/)
    expect(() =>
      buildMixPassArgs({ timeline, narrationPaths: [null], musicPath: 'music.wav' }, '/m.wav'),
    ).toThrow(/The music loop must be an absolute path/)
    expect(() =>
      buildJoinArgs({
        concatListPath: 'list.ffconcat',
        audioPath: '/a.m4a',
        durationMs: 1000,
        outputPath: '/v.mp4',
      }),
    ).toThrow(/The concat list must be an absolute path/)
  })

  it('a render with relative folders is refused before anything runs or is written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reelgraph-relative-'))
    try {
      await expect(
        renderVideo({
          scenes: [{ imagePath: join(dir, 'none.png') }],
          cacheDir: 'data/render-cache',
          workDir: dir,
        }),
      ).rejects.toMatchObject({
        code: 'invalid-input',
        message: /render cache folder must be an absolute path/,
      })
      await expect(
        renderVideo({
          scenes: [{ imagePath: join(dir, 'none.png') }],
          cacheDir: dir,
          workDir: 'data/render-work',
        }),
      ).rejects.toMatchObject({
        code: 'invalid-input',
        message: /render work folder must be an absolute path/,
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
