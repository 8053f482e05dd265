import { describe, expect, it } from 'vitest'
import { type ChainByRole, LAYOUT_COLUMN_GAP, layoutColumns } from './column-layout.ts'
import { madeVideoSizes } from './make-video.ts'
import type { NodeType } from './nodes/registry.ts'
import { NODE_FOOTPRINTS, type NodeSizes, PLACEMENT_GAP } from './placement.ts'

/** A made video's chain of `n` scenes, as "Make video" builds it (issue 13 item 6, 22 item 4). */
function chainOf(n: number, animate: boolean): ChainByRole {
  const ids = (role: string) => Array.from({ length: n }, (_, i) => `${role}-${i}`)
  const [scenes, imageGenerators, images, videoGenerators, clips] = [
    ids('scene'),
    ids('image-generator'),
    ids('image'),
    ids('video-generator'),
    ids('clip'),
  ]
  return {
    scriptGenerator: 'generator',
    script: 'text',
    rows: scenes.map((scene, i) => ({
      scene,
      imageGenerator: imageGenerators[i],
      image: images[i],
      ...(animate ? { videoGenerator: videoGenerators[i], clip: clips[i] } : {}),
    })),
    video: 'video',
  }
}

const TYPE_OF_ROLE = {
  scene: 'scene',
  imageGenerator: 'image-generator',
  image: 'image',
  videoGenerator: 'video-generator',
  clip: 'clip',
} as const satisfies Record<string, NodeType>

interface Placed {
  id: string
  type: NodeType
  left: number
  top: number
  right: number
  bottom: number
  middle: number
}

/** Every node of `chain` with its box (by the footprints, or `sizes`) where `layout` put it. */
function boxes(
  chain: ChainByRole,
  layout: Map<string, { x: number; y: number }>,
  sizes: NodeSizes,
) {
  const byId = new Map<string, Placed>()
  const add = (id: string | undefined, type: NodeType) => {
    if (id === undefined) return
    const at = layout.get(id)
    expect(at, `${id} is placed`).toBeDefined()
    const { width, height } = sizes[type] ?? NODE_FOOTPRINTS[type]
    byId.set(id, {
      id,
      type,
      left: at!.x,
      top: at!.y,
      right: at!.x + width,
      bottom: at!.y + height,
      middle: at!.y + height / 2,
    })
  }
  add(chain.scriptGenerator, 'script-generator')
  add(chain.script, 'editable-text')
  for (const row of chain.rows) {
    for (const [role, type] of Object.entries(TYPE_OF_ROLE))
      add(row[role as keyof typeof row], type)
  }
  add(chain.video, 'video')
  return byId
}

/** The chain's connections, as the Make video job writes them (source -> target). */
function connections(chain: ChainByRole): [string, string][] {
  const out: [string, string][] = [
    [chain.scriptGenerator!, chain.script!],
    [chain.script!, chain.video!],
  ]
  for (const row of chain.rows) {
    out.push([chain.script!, row.scene!], [row.scene!, row.imageGenerator!])
    out.push([row.imageGenerator!, row.image!])
    if (row.videoGenerator)
      out.push([row.scene!, row.videoGenerator], [row.videoGenerator, row.clip!])
  }
  return out
}

const overlap = (a: Placed, b: Placed) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

describe('layoutColumns: a made video read left to right (issue 42 item 5)', () => {
  const origin = { x: 120, y: -60 }
  const cases = [1, 3, 12].flatMap((n) =>
    [false, true].flatMap((animate) =>
      (['16:9', '9:16'] as const).map((preset) => ({ n, animate, preset })),
    ),
  )

  it.each(cases)(
    '$n scenes, animated $animate, $preset: no overlaps, columns in order, rows by scene, connections to the right',
    ({ n, animate, preset }) => {
      const chain = chainOf(n, animate)
      const sizes = madeVideoSizes(preset)
      const layout = layoutColumns(chain, { origin, sizes })
      const placed = boxes(chain, layout, sizes)
      expect(layout.size).toBe(placed.size)
      const all = [...placed.values()]

      // Nothing overlaps, and there is at least the placement gap between any two nodes.
      for (const [i, a] of all.entries()) {
        for (const b of all.slice(i + 1)) expect(overlap(a, b), `${a.id} / ${b.id}`).toBe(false)
      }

      // The Script Generator stays where it is.
      expect(layout.get('generator')).toEqual(origin)

      // Columns in order: each type's column starts right of the previous one's widest node.
      const order: NodeType[] = [
        'script-generator',
        'editable-text',
        'scene',
        'image-generator',
        'image',
        ...(animate ? (['video-generator', 'clip'] as const) : []),
        'video',
      ]
      const ofType = (type: NodeType) => all.filter((p) => p.type === type)
      for (const [i, type] of order.entries()) {
        const column = ofType(type)
        expect(column.length).toBeGreaterThan(0)
        // One column: every node of the type at the same x.
        expect(new Set(column.map((p) => p.left)).size).toBe(1)
        if (i === 0) continue
        const before = Math.max(...ofType(order[i - 1]!).map((p) => p.right))
        expect(column[0]!.left - before).toBeGreaterThanOrEqual(PLACEMENT_GAP)
      }

      // Rows by scene: scene i's nodes share one middle line (straight connections), in
      // scene order from the top, each row below the one before.
      let previousBottom = -Infinity
      for (const row of chain.rows) {
        const nodes = Object.keys(TYPE_OF_ROLE)
          .map((role) => row[role as keyof typeof row])
          .filter((id): id is string => id !== undefined)
          .map((id) => placed.get(id)!)
        expect(nodes).toHaveLength(animate ? 5 : 3)
        const middle = nodes[0]!.middle
        for (const p of nodes) expect(Math.abs(p.middle - middle)).toBeLessThanOrEqual(0.5)
        const top = Math.min(...nodes.map((p) => p.top))
        expect(top).toBeGreaterThan(previousBottom)
        previousBottom = Math.max(...nodes.map((p) => p.bottom))
      }

      // The first row stands on the generator's middle line; the Video node is centred on
      // the rows.
      const generator = placed.get('generator')!
      const first = placed.get(chain.rows[0]!.scene!)!
      expect(Math.abs(first.middle - generator.middle)).toBeLessThanOrEqual(0.5)
      const inRows = all.filter((p) => (Object.values(TYPE_OF_ROLE) as NodeType[]).includes(p.type))
      const rowsTop = Math.min(...inRows.map((p) => p.top))
      const rowsBottom = Math.max(...inRows.map((p) => p.bottom))
      expect(
        Math.abs(placed.get('video')!.middle - (rowsTop + rowsBottom) / 2),
      ).toBeLessThanOrEqual(0.5)

      // Every connection runs to the right, clear of its source; those within a row span one
      // gap, or skip only the row's image column (scene -> Video Generator).
      for (const [source, target] of connections(chain)) {
        const s = placed.get(source)!
        const t = placed.get(target)!
        expect(t.left - s.right, `${source} -> ${target}`).toBeGreaterThanOrEqual(PLACEMENT_GAP)
        if (
          s.type === 'image-generator' ||
          s.type === 'video-generator' ||
          t.type === 'image-generator'
        ) {
          expect(t.left - s.right).toBe(LAYOUT_COLUMN_GAP)
        }
      }
    },
  )

  it('is much shorter than the old stacked layout: three scenes in about three node rows', () => {
    const layout = layoutColumns(chainOf(3, false), { origin: { x: 0, y: 0 } })
    const placed = [...boxes(chainOf(3, false), layout, {}).values()]
    const height = Math.max(...placed.map((p) => p.bottom)) - Math.min(...placed.map((p) => p.top))
    const width = Math.max(...placed.map((p) => p.right)) - Math.min(...placed.map((p) => p.left))
    // Three rows as tall as an image generator, two row gaps.
    expect(height).toBe(3 * NODE_FOOTPRINTS['image-generator'].height + 2 * PLACEMENT_GAP)
    // Seven columns: generator, text (350 to the right, spec §4), scenes, image generators,
    // images, the Video node.
    expect(width).toBe(
      350 +
        NODE_FOOTPRINTS['editable-text'].width +
        NODE_FOOTPRINTS.scene.width +
        NODE_FOOTPRINTS['image-generator'].width +
        NODE_FOOTPRINTS.image.width +
        NODE_FOOTPRINTS.video.width +
        4 * LAYOUT_COLUMN_GAP,
    )
  })

  it('gives no room to a column nobody fills, and starts at the origin without a generator', () => {
    // A template's product clip: an uploaded image, its Video Generator and Clip, the video.
    const chain: ChainByRole = {
      rows: [{ image: 'image', videoGenerator: 'vg', clip: 'clip' }],
      video: 'video',
    }
    const layout = layoutColumns(chain, { origin: { x: 0, y: 0 } })
    expect(layout.get('image')).toEqual({ x: 0, y: 0 + (660 - 460) / 2 })
    expect(layout.get('vg')).toEqual({ x: 400 + LAYOUT_COLUMN_GAP, y: 0 })
    expect(layout.get('clip')!.x).toBe(400 + 320 + 2 * LAYOUT_COLUMN_GAP)
    expect(layout.get('video')!.x).toBe(400 + 320 + 400 + 3 * LAYOUT_COLUMN_GAP)
  })
})
