import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { GraphNode } from './graph.ts'
import {
  affordableSceneCount,
  type MadeVideoIds,
  makeVideoCost,
  makeVideoClipSeconds,
  makeVideoCostParts,
  makeVideoInput,
  madeVideoSizes,
  planMadeVideo,
} from './make-video.ts'
import { layoutColumns } from './column-layout.ts'
import { createGraphNode } from './node-defaults.ts'
import { NODE_FOOTPRINTS, type NodeSizes } from './placement.ts'
import {
  addVideoTake,
  MAX_VIDEO_TAKES,
  VIDEO_PRESET_NAMES,
  type VideoTake,
  videoTakesOf,
} from './video.ts'

const costs = { script: 1, scenes: 1, image: 2, voice: 1, video: 5 }

function ids(n: number, animate = false): MadeVideoIds {
  const list = (type: string) => Array.from({ length: n }, (_, i) => `${type}-1-p${i}`)
  return {
    text: 'editable-text-1-p',
    scenes: list('scene'),
    imageGenerators: list('image-generator'),
    images: list('image'),
    videoGenerators: animate ? list('video-generator') : [],
    clips: animate ? list('clip') : [],
    video: 'video-1-p',
  }
}

function overlaps(
  a: Pick<GraphNode, 'type' | 'position'>,
  b: Pick<GraphNode, 'type' | 'position'>,
  sizes: NodeSizes = {},
) {
  const sa = sizes[a.type] ?? NODE_FOOTPRINTS[a.type]
  const sb = sizes[b.type] ?? NODE_FOOTPRINTS[b.type]
  return (
    a.position.x < b.position.x + sb.width &&
    b.position.x < a.position.x + sa.width &&
    a.position.y < b.position.y + sb.height &&
    b.position.y < a.position.y + sa.height
  )
}

describe('make video cost (issue 13 item 6)', () => {
  it('is the sum of the single steps: script, scenes, an image and a voice per scene, the render', () => {
    expect(makeVideoCost(costs, 6)).toBe(1 + 1 + 12 + 6 + 5)
    expect(makeVideoCostParts(costs, 1).map((p) => p.label)).toEqual([
      'Script',
      'Scenes',
      '1 image',
      '1 narrated scene',
      'Video render',
    ])
  })

  it('starts the dialog at the most scenes the balance pays for, at most the default', () => {
    expect(affordableSceneCount(costs, 100, 6)).toBe(6)
    expect(affordableSceneCount(costs, 20, 6)).toBe(4) // 19 credits
    expect(affordableSceneCount(costs, 10, 6)).toBe(1) // 10 credits
    expect(affordableSceneCount(costs, 9, 6)).toBe(0)
  })
})

describe('make video with animated scenes (issue 22 item 4)', () => {
  const kling = {
    name: 'Kling 2.1',
    cost: { credits: 1.5, per: 'second' as const },
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
      lastFrame: false,
      audio: false,
      durations: [4, 6, 10],
      aspectRatios: ['16:9' as const],
      resolutions: ['720p'],
    },
  }

  it('adds one clip per scene of the model’s duration nearest 5 s to the one total', () => {
    // 4 and 6 are as near as each other: the shorter one (shared nearestDuration).
    expect(makeVideoClipSeconds(kling)).toBe(4)
    const parts = makeVideoCostParts(costs, 3, kling)
    expect(parts.map((p) => p.label)).toEqual([
      'Script',
      'Scenes',
      '3 images',
      '3 clips · Kling 2.1, 4 s',
      '3 narrated scenes',
      'Video render',
    ])
    // 1.5 credits a second x 4 s = 6 per clip.
    expect(parts[3]?.credits).toBe(18)
    expect(makeVideoCost(costs, 3, kling)).toBe(makeVideoCost(costs, 3) + 18)
    expect(makeVideoCost(costs, 3, null)).toBe(makeVideoCost(costs, 3))
  })

  it('starts the dialog at the most animated scenes the balance pays for', () => {
    // A still chain is 7 credits and 3 a scene; each clip is 6 more.
    expect(affordableSceneCount(costs, 16, 6, kling)).toBe(1)
    expect(affordableSceneCount(costs, 15, 6, kling)).toBe(0)
    expect(affordableSceneCount(costs, 16, 6)).toBe(3)
  })

  it('takes the model to animate with in the call, and nothing else', () => {
    const base = { projectId: 1, nodeId: 'script-generator-1-a', sceneCount: 2, preset: '16:9' }
    expect(makeVideoInput.parse({ ...base, animate: { modelId: 'fal:fal-ai/kling' } })).toEqual({
      ...base,
      animate: { modelId: 'fal:fal-ai/kling' },
    })
    expect(makeVideoInput.parse(base)).toEqual(base)
    expect(makeVideoInput.safeParse({ ...base, animate: { modelId: 'kling' } }).success).toBe(false)
  })
})

describe('planMadeVideo', () => {
  it('lays the chain out in columns (issue 42 item 5), moved down as one block clear of other nodes, nothing overlapping at the preset’s sizes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 25 }),
        fc.boolean(),
        fc.constantFrom(...VIDEO_PRESET_NAMES),
        fc.array(
          fc.record({
            x: fc.integer({ min: -3000, max: 12000 }),
            y: fc.integer({ min: -3000, max: 4000 }),
          }),
          { maxLength: 30 },
        ),
        (n, animate, preset, others) => {
          const existing = others.map((p, i) => createGraphNode('scene', p, [], 0, `scene-2-o${i}`))
          const chain = ids(n, animate)
          const plan = planMadeVideo({ position: { x: 0, y: 0 } }, chain, existing, preset)
          const sizes = madeVideoSizes(preset)
          const placed = [
            { type: 'editable-text' as const, position: plan.text },
            ...plan.scenes.map((position) => ({ type: 'scene' as const, position })),
            ...plan.imageGenerators.map((position) => ({
              type: 'image-generator' as const,
              position,
            })),
            ...plan.images.map((position) => ({ type: 'image' as const, position })),
            ...plan.videoGenerators.map((position) => ({
              type: 'video-generator' as const,
              position,
            })),
            ...plan.clips.map((position) => ({ type: 'clip' as const, position })),
            { type: 'video' as const, position: plan.video },
          ]
          for (const [i, a] of placed.entries()) {
            for (const b of placed.slice(i + 1)) expect(overlaps(a, b, sizes)).toBe(false)
            for (const b of existing) expect(overlaps(a, b, sizes)).toBe(false)
          }
          // The column layout itself, moved straight down by one amount.
          const columns = layoutColumns(
            {
              scriptGenerator: 'generator',
              script: chain.text,
              rows: chain.scenes.map((scene, i) => ({
                scene,
                imageGenerator: chain.imageGenerators[i],
                image: chain.images[i],
                videoGenerator: chain.videoGenerators[i],
                clip: chain.clips[i],
              })),
              video: chain.video,
            },
            { origin: { x: 0, y: 0 }, sizes },
          )
          const dy = plan.text.y - columns.get(chain.text)!.y
          expect(dy).toBeGreaterThanOrEqual(0)
          const shifted = (id: string) => {
            const p = columns.get(id)!
            return { x: p.x, y: p.y + dy }
          }
          expect(plan.scenes).toEqual(chain.scenes.map(shifted))
          expect(plan.images).toEqual(chain.images.map(shifted))
          expect(plan.clips).toEqual(chain.clips.map(shifted))
          expect(plan.video).toEqual(shifted(chain.video))
          expect(plan.clips).toHaveLength(animate ? n : 0)
          expect(plan.video.x).toBeGreaterThan(plan.images[n - 1]!.x)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('makes room for a portrait picture and player: taller, never narrower', () => {
    expect(madeVideoSizes('16:9')).toEqual({
      image: NODE_FOOTPRINTS.image,
      video: NODE_FOOTPRINTS.video,
    })
    const portrait = madeVideoSizes('9:16')
    // The picture is the node's width less its padding (376) and 16:9 -> 9:16 tall.
    expect(portrait.image).toEqual({
      width: NODE_FOOTPRINTS.image.width,
      height: Math.ceil(NODE_FOOTPRINTS.image.height + 376 * (16 / 9 - 9 / 16)),
    })
    expect(portrait.video!.height).toBeGreaterThan(NODE_FOOTPRINTS.video.height + 450)
    expect(madeVideoSizes('1:1').image!.height).toBeGreaterThan(NODE_FOOTPRINTS.image.height)
  })

  it('ignores its own nodes from an earlier attempt', () => {
    const first = planMadeVideo({ position: { x: 0, y: 0 } }, ids(3), [])
    const own = createGraphNode('editable-text', first.text, [], 0, ids(3).text)
    expect(planMadeVideo({ position: { x: 0, y: 0 } }, ids(3), [own])).toEqual(first)
  })
})

describe('video takes', () => {
  const take = (n: number): VideoTake => ({
    mp4Url: `/api/assets/m${n}`,
    srtUrl: `/api/assets/s${n}`,
    vttUrl: `/api/assets/v${n}`,
    durationMs: 1000 * n,
    inputHash: `h${n}`,
    renderedAt: new Date(n * 1000).toISOString(),
    preset: '16:9',
  })

  it('keeps the newest five, newest first, and says which fell off', () => {
    let takes: VideoTake[] = []
    const dropped: VideoTake[] = []
    for (let n = 1; n <= 7; n++) {
      const next = addVideoTake(takes, take(n))
      takes = next.kept
      dropped.push(...next.dropped)
    }
    expect(MAX_VIDEO_TAKES).toBe(5)
    expect(takes.map((t) => t.durationMs)).toEqual([7000, 6000, 5000, 4000, 3000])
    expect(dropped.map((t) => t.mp4Url)).toEqual(['/api/assets/m1', '/api/assets/m2'])
  })

  it('writing one render twice keeps one take', () => {
    const once = addVideoTake([], take(1)).kept
    expect(addVideoTake(once, take(1))).toEqual({ kept: once, dropped: [] })
  })

  it('reads takes from node data, skipping what does not parse', () => {
    expect(videoTakesOf({})).toEqual([])
    expect(videoTakesOf({ videoTakes: 'not json' })).toEqual([])
    expect(videoTakesOf({ videoTakes: JSON.stringify([take(2), { mp4Url: 3 }, take(1)]) })).toEqual(
      [take(2), take(1)],
    )
  })
})
