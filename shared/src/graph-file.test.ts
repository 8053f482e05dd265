import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dropDuplicateConnections, type GraphNode } from './graph.ts'
import {
  GRAPH_FILE_FORMAT,
  GRAPH_FILE_MESSAGES,
  GRAPH_FILE_VERSION,
  graphFileName,
  graphFileNode,
  graphFileTimelines,
  parseGraphFile,
  timelineRegistersOfFile,
} from './graph-file.ts'
import { createProjectInput } from './projects.ts'
import { graphArbitraries } from './testing/graph-arbitraries.ts'

const video: GraphNode = {
  id: 'video-1700000000000-v1',
  type: 'video',
  label: 'Video',
  position: { x: 0, y: 0 },
  data: { preset: '9:16' },
  connectionPoints: 'both',
}

const file = (fields: Record<string, unknown> = {}) => ({
  format: GRAPH_FILE_FORMAT,
  version: GRAPH_FILE_VERSION,
  project: { name: 'Tides' },
  nodes: [video],
  connections: [],
  ...fields,
})

/** The messages of a refused parse, each with where it is. */
function issuesOf(result: {
  success: boolean
  error?: { issues: readonly { path: PropertyKey[]; message: string }[] }
}) {
  return (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('parseGraphFile (issue 42 item 2)', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a list', [file()]],
    ['text', 'reelgraph.graph'],
    ['no format', { ...file(), format: undefined }],
    ['another format', file({ format: 'excalidraw' })],
  ])('answers %s as no graph file, and nothing else', (_, value) => {
    const read = parseGraphFile(value)
    expect(read.success).toBe(false)
    expect(issuesOf(read).map((m) => m.replace(/^[^:]*: /, ''))).toEqual([
      GRAPH_FILE_MESSAGES.notAGraphFile,
    ])
  })

  it('answers a newer version in words before it reads anything else', () => {
    const read = parseGraphFile(file({ version: 2, nodes: { whatever: 'format 2 holds' } }))
    expect(issuesOf(read)).toEqual([
      'version: This file was made by a newer Reelgraph (format 2); this one reads format 1.',
    ])
  })

  it.each([0, -1, 1.5, '1', null])('answers version %j as no valid version', (version) => {
    expect(issuesOf(parseGraphFile(file({ version })))).toEqual([
      `version: ${GRAPH_FILE_MESSAGES.badVersion}`,
    ])
  })

  it('reads a file of this version with the defaults filled in', () => {
    const read = parseGraphFile(file())
    expect(read.success).toBe(true)
    expect(read.data).toEqual({ ...file(), timelines: {} })
  })

  it('asks for the project’s name in words, and takes a file without nodes as an empty graph', () => {
    expect(issuesOf(parseGraphFile(file({ project: undefined })))).toEqual([
      'project: A graph file names its project: "project": { "name": "…" }.',
    ])
    const empty = parseGraphFile(file({ nodes: undefined, connections: undefined }))
    expect(empty.data).toMatchObject({ nodes: [], connections: [] })
  })

  it('refuses a timeline field the sync server would refuse, and one of no Video node', () => {
    const bad = parseGraphFile(
      file({
        timelines: {
          [video.id]: { settings: { musicVolume: 3 }, cuts: { 'scene:x': { removed: 'yes' } } },
          'scene-1700000000000-s1': { settings: { titleText: 'Hi' } },
        },
      }),
    )
    expect(issuesOf(bad)).toEqual([
      expect.stringMatching(
        /^timelines\.video-1700000000000-v1\.settings\.musicVolume: The timeline of "video-1700000000000-v1": the timeline field musicVolume holds 3, /,
      ),
      expect.stringMatching(
        /^timelines\.video-1700000000000-v1\.cuts\.scene:x\.removed: .*the timeline field removed holds "yes"/,
      ),
      `timelines.scene-1700000000000-s1: ${GRAPH_FILE_MESSAGES.orphanTimeline('scene-1700000000000-s1')}`,
    ])
  })

  // "Validated by the same schemas as the document, refusing what the validator refuses":
  // whatever graph a file carries, it is refused exactly when `POST /api/projects` would refuse
  // it, with the same messages at the same places, and read as the same nodes otherwise.
  it('accepts and refuses a graph exactly as POST /api/projects does', () => {
    const { graph } = graphArbitraries()
    fc.assert(
      fc.property(graph, (g) => {
        const sent = JSON.parse(JSON.stringify(g)) as typeof g
        const rest = createProjectInput.safeParse({ name: 'Tides', ...sent })
        const read = parseGraphFile(file(sent))
        expect(read.success).toBe(rest.success)
        if (rest.success && read.success) {
          expect(read.data.nodes).toEqual(rest.data.nodes)
          expect(dropDuplicateConnections(read.data.connections)).toEqual(rest.data.connections)
        } else {
          expect(issuesOf(read)).toEqual(issuesOf(rest))
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('the timelines of a graph file', () => {
  it('groups a document’s registers by Video node, and gives the same registers back', () => {
    const registers: [string, unknown][] = [
      [`${video.id}/settings/captionStyle`, 'word-highlight'],
      [`${video.id}/cut/scene:s1/transition`, 'dip'],
      [`${video.id}/cut/scene:s1/holdMs`, 4000],
      [`${video.id}/cut/split-1/removed`, true],
    ]
    const timelines = graphFileTimelines(
      [
        ...registers,
        // Another node's, a value the rules refuse, a key of no timeline: left out.
        ['video-1700000000000-v2/settings/titleText', 'Other'],
        [`${video.id}/settings/musicVolume`, 7],
        ['not a register', 'x'],
      ],
      new Set([video.id]),
    )
    expect(timelines).toEqual({
      [video.id]: {
        settings: { captionStyle: 'word-highlight' },
        cuts: { 'scene:s1': { transition: 'dip', holdMs: 4000 }, 'split-1': { removed: true } },
      },
    })
    expect(timelineRegistersOfFile(timelines)).toEqual(registers)
  })
})

describe('graphFileNode', () => {
  it('leaves out job state and the fields its type cannot read, and keeps the rest', () => {
    const node: GraphNode = {
      ...video,
      data: {
        preset: '9:16',
        subtitles: 'yes please',
        voice: 'en-GB',
        jobId: 'a-job',
        jobStatus: 'running',
        jobProgress: 40,
      },
    }
    expect(graphFileNode(node)).toEqual({ ...video, data: { preset: '9:16', voice: 'en-GB' } })
    expect(node.data.jobId).toBe('a-job')
  })
})

describe('graphFileName', () => {
  it.each([
    ['Tides', 'Tides.reelgraph.json'],
    ['Tides: "draft" / v2', 'Tides_ _draft_ _ v2.reelgraph.json'],
    ['CON', '_CON.reelgraph.json'],
    ['...', 'project.reelgraph.json'],
  ])('names %j %j', (name, expected) => {
    expect(graphFileName(name)).toBe(expected)
  })
})
