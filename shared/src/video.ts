import { z } from 'zod'
import { projectIdSchema } from './ids.ts'
import type { Connection, NodeType } from './graph.ts'
import { readNodeData } from './nodes/registry.ts'
import { shortHash } from './short-hash.ts'
import { captionsInput } from './caption-style.ts'
import {
  type ClipFit,
  type ClipShorter,
  type ClipSound,
  MAX_VIDEO_TAKES,
  type VideoPresetName,
  type VideoTake,
} from './nodes/video.ts'

/**
 * The Video node (issue 13 items 4 and 5): which scenes it takes from the graph, what it
 * renders with, and the result the render job writes onto it. Pure functions, shared by the
 * api (which collects the scenes on the server) and the canvas (which lists what is missing
 * and shows Stale).
 */

export {
  MAX_VIDEO_TAKES,
  VIDEO_PRESET_NAMES,
  type VideoPresetName,
  type VideoTake,
  videoTakeSchema,
} from './nodes/video.ts'

/**
 * The takes of a Video node's data (stored, or the canvas's flow data), newest first: at
 * most {@link MAX_VIDEO_TAKES}, those that parse; a node rendered before takes existed
 * reads as its one render (the Video node's migration).
 */
export function videoTakesOf(data: Readonly<Record<string, unknown>>): VideoTake[] {
  return readNodeData('video', data).videoTakes
}

/**
 * `take` added in front of `takes` (a take of the same MP4 replaces itself, so writing one
 * render twice keeps one take), cut to the newest {@link MAX_VIDEO_TAKES}.
 * @returns the kept takes, and the ones that fell off the end (whose files may be removed).
 */
export function addVideoTake(
  takes: readonly VideoTake[],
  take: VideoTake,
): { kept: VideoTake[]; dropped: VideoTake[] } {
  const all = [take, ...takes.filter((t) => t.mp4Url !== take.mp4Url)]
  return { kept: all.slice(0, MAX_VIDEO_TAKES), dropped: all.slice(MAX_VIDEO_TAKES) }
}

/** `POST /api/video/render`: render the Video node `nodeId` of project `projectId`. */
export const renderVideoInput = z
  .object({
    projectId: projectIdSchema,
    nodeId: z.string().min(1).max(64),
    /**
     * The caption look of this render (issue 24 item 4), over the timeline's caption
     * settings; absent: the timeline's.
     */
    captions: captionsInput.optional(),
  })
  .meta({ id: 'RenderVideoInput' })
export type RenderVideoInput = z.infer<typeof renderVideoInput>

/**
 * `POST /api/video/narration-preview`: speak scene `nodeId`'s narration (the scene play
 * button, issue 13 item 5) in `voice` (the provider's default when empty or absent).
 * Answers `audio/wav`.
 */
export const narrationPreviewInput = z
  .object({
    projectId: projectIdSchema,
    nodeId: z.string().min(1).max(64),
    voice: z.string().max(100).optional(),
  })
  .meta({ id: 'NarrationPreviewInput' })
export type NarrationPreviewInput = z.infer<typeof narrationPreviewInput>

/** `GET /api/video/voices`: the narration voices of the active speech provider (issue 13 item 1). */
export const voicesOutput = z
  .object({
    provider: z.object({ id: z.string(), name: z.string(), offline: z.boolean() }),
    /** The voice used when a Video node's `voice` is empty. */
    defaultVoice: z.string(),
    voices: z.array(
      z.object({ id: z.string(), name: z.string(), language: z.string().optional() }),
    ),
  })
  .meta({ id: 'NarrationVoices' })
export type VoicesOutput = z.infer<typeof voicesOutput>

/** A Video node's settings, read from its data with the defaults for anything malformed. */
export interface VideoSettings {
  preset: VideoPresetName
  /** The voice id; '' for the provider's default. */
  voice: string
  subtitles: boolean
  music: boolean
  /** Scenes that are clips (issue 22 item 4): how a clip fills the frame. */
  clipFit: ClipFit
  /** A clip shorter than its scene: hold its last frame, or slow it. */
  clipShorter: ClipShorter
  /** A clip's own sound: off, or mixed under the narration (ducked). */
  clipSound: ClipSound
}

/** The settings of a Video node's `data` (stored, or the canvas's flow data). */
export function videoSettingsOf(data: Readonly<Record<string, unknown>>): VideoSettings {
  const { preset, voice, subtitles, music, clipFit, clipShorter, clipSound } = readNodeData(
    'video',
    data,
  )
  return { preset, voice, subtitles, music, clipFit, clipShorter, clipSound }
}

/** A scene's generated clip (issue 22 item 4). */
export interface VideoSceneClip {
  /** The MP4's asset URL. */
  url: string
  /** Its length, in ms. */
  durationMs: number
  /** True when it has a sound track. */
  hasAudio: boolean
  /** The catalog model that made it (`builtin:motion-draft` for the offline draft). */
  modelId: string
}

/** One scene a Video node takes. */
export interface VideoScene {
  nodeId: string
  /** The scene's `sceneNumber` as written (ordering uses its numeric value). */
  sceneNumber: string
  narration: string
  /** The image reachable through scene -> image generator -> image, or null. */
  imageUrl: string | null
  /**
   * The clip reachable through scene -> video generator -> clip, or null: the scene's picture
   * when there is one, else its image (issue 22 item 4).
   */
  clip: VideoSceneClip | null
}

/** What a Video node would render now. */
export interface VideoInputs {
  scenes: VideoScene[]
  /** The scenes with neither a clip nor an image, in order. */
  missing: VideoScene[]
  settings: VideoSettings
  /** {@link videoInputHash} of the scenes and settings. */
  hash: string
}

/**
 * What {@link collectVideoInputs} reads of a graph: node ids, types and data, stored
 * (`Graph`) or as the canvas holds them (flow nodes, whose data has more fields).
 */
export interface VideoGraph {
  nodes: readonly VideoGraphNode[]
  connections: readonly Connection[]
}
/** A node of a {@link VideoGraph}. */
export interface VideoGraphNode {
  id: string
  type: NodeType
  data: Readonly<Record<string, unknown>>
}

function neighbours(graph: VideoGraph, id: string): string[] {
  const out: string[] = []
  for (const c of graph.connections) {
    if (c.source === id) out.push(c.target)
    else if (c.target === id) out.push(c.source)
  }
  return out
}

/** The newest image behind `scene`: its id's timestamp (`image-<ms>-...`), then its id. */
function imageOf(
  graph: VideoGraph,
  byId: Map<string, VideoGraphNode>,
  scene: VideoGraphNode,
): string | null {
  const images: { id: string; imageUrl: string }[] = []
  for (const c of graph.connections) {
    if (c.source !== scene.id) continue
    if (byId.get(c.target)?.type !== 'image-generator') continue
    for (const d of graph.connections) {
      const image = d.source === c.target ? byId.get(d.target) : undefined
      if (image?.type !== 'image') continue
      const { imageUrl } = readNodeData('image', image.data)
      if (imageUrl) images.push({ id: image.id, imageUrl })
    }
  }
  const stamp = (n: { id: string }) => Number(n.id.split('-')[1] ?? 0)
  images.sort((a, b) => stamp(b) - stamp(a) || (a.id < b.id ? -1 : 1))
  return images[0]?.imageUrl ?? null
}

/** The newest clip behind `scene` (scene -> video generator -> clip), by its id's timestamp. */
function clipOf(
  graph: VideoGraph,
  byId: Map<string, VideoGraphNode>,
  scene: VideoGraphNode,
): VideoSceneClip | null {
  const clips: { id: string; clip: VideoSceneClip }[] = []
  for (const c of graph.connections) {
    if (c.source !== scene.id) continue
    if (byId.get(c.target)?.type !== 'video-generator') continue
    for (const d of graph.connections) {
      const node = d.source === c.target ? byId.get(d.target) : undefined
      if (node?.type !== 'clip') continue
      const { videoUrl, durationMs, hasAudio, modelId } = readNodeData('clip', node.data)
      if (videoUrl) {
        clips.push({ id: node.id, clip: { url: videoUrl, durationMs, hasAudio, modelId } })
      }
    }
  }
  const stamp = (n: { id: string }) => Number(n.id.split('-')[1] ?? 0)
  clips.sort((a, b) => stamp(b) - stamp(a) || (a.id < b.id ? -1 : 1))
  return clips[0]?.clip ?? null
}

/**
 * The scenes Video node `videoId` takes (issue 13 item 5): the scenes connected to it, and
 * every scene of a text node connected to it (text -> scene), each once, in `sceneNumber`
 * order (numerically; ties by node id), each with its narration, image and clip.
 * @returns null when `videoId` is not a Video node of `graph`.
 */
export function collectVideoInputs(graph: VideoGraph, videoId: string): VideoInputs | null {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]))
  const video = byId.get(videoId)
  if (video?.type !== 'video') return null
  const scenes = new Map<string, VideoGraphNode>()
  for (const id of neighbours(graph, videoId)) {
    const node = byId.get(id)
    if (node?.type === 'scene') scenes.set(node.id, node)
    if (node?.type === 'editable-text') {
      for (const c of graph.connections) {
        const scene = c.source === node.id ? byId.get(c.target) : undefined
        if (scene?.type === 'scene') scenes.set(scene.id, scene)
      }
    }
  }
  const read = [...scenes.values()].map((n) => ({ node: n, data: readNodeData('scene', n.data) }))
  const numberOf = (s: (typeof read)[number]) => {
    const value = Number(s.data.sceneNumber)
    return Number.isFinite(value) ? value : Number.MAX_SAFE_INTEGER
  }
  const ordered = read.sort((a, b) => numberOf(a) - numberOf(b) || (a.node.id < b.node.id ? -1 : 1))
  const list: VideoScene[] = ordered.map(({ node, data }) => ({
    nodeId: node.id,
    sceneNumber: data.sceneNumber,
    narration: data.narration,
    imageUrl: imageOf(graph, byId, node),
    clip: clipOf(graph, byId, node),
  }))
  const settings = videoSettingsOf(video.data)
  return {
    scenes: list,
    missing: list.filter((s) => s.imageUrl === null && s.clip === null),
    settings,
    hash: videoInputHash(list, settings),
  }
}

/**
 * A short hash of what a render depends on (scenes in order with narration, image and clip,
 * and the settings): the Stale badge compares it with the one stored by the last render. The
 * clip settings and clips count only when a scene has a clip, so a render from before clips
 * existed is not Stale for their sake ({@link shortHash}: "changed" or "same" only).
 */
export function videoInputHash(scenes: readonly VideoScene[], settings: VideoSettings): string {
  const clips = scenes.some((s) => s.clip !== null)
  const { preset, voice, subtitles, music } = settings
  const stills = { preset, voice, subtitles, music }
  const text = JSON.stringify([
    clips ? settings : stills,
    scenes.map((s) =>
      clips
        ? [s.nodeId, s.sceneNumber, s.narration, s.imageUrl, s.clip?.url ?? null]
        : [s.nodeId, s.sceneNumber, s.narration, s.imageUrl],
    ),
  ])
  return shortHash(text)
}

/** Credits of a render of `sceneCount` scenes: one video plus one voice per scene. */
export function videoRenderCost(
  costs: { voice: number; video: number },
  sceneCount: number,
): number {
  return costs.video + costs.voice * sceneCount
}
