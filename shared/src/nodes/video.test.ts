import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { addNode, getNodesMap, readNode, updateNodeData } from '../graph-doc.ts'
import { addVideoTake } from '../video.ts'
import { readNodeData } from './registry.ts'
import { flatResultAsTake, videoNode, videoResultData, type VideoTake } from './video.ts'

/** A Video node's data as a render stored it before takes existed (before commit 8a4fee8). */
const BEFORE_TAKES = {
  preset: '9:16',
  voice: '',
  subtitles: true,
  music: false,
  videoUrl: '/api/assets/old-mp4',
  videoSrtUrl: '/api/assets/old-srt',
  videoVttUrl: '/api/assets/old-vtt',
  videoDurationMs: 8000,
  videoInputHash: 'abc123',
  jobId: '0190c3e4-0000-7000-8000-000000000001',
  jobStatus: 'succeeded',
  jobProgress: 100,
  jobUpdatedAt: '2026-11-20T10:00:00.000Z',
}

const OLD_TAKE: VideoTake = {
  mp4Url: '/api/assets/old-mp4',
  srtUrl: '/api/assets/old-srt',
  vttUrl: '/api/assets/old-vtt',
  durationMs: 8000,
  inputHash: 'abc123',
  renderedAt: '2026-11-20T10:00:00.000Z',
  preset: '9:16',
}

describe('Video node migration video/flat-result-as-take (issue 21 item 3)', () => {
  it('is listed on the Video node', () => {
    expect(videoNode.migrations.map((m) => m.id)).toEqual(['video/flat-result-as-take'])
  })

  it('reads a render stored before takes as one take', () => {
    expect(readNodeData('video', BEFORE_TAKES).videoTakes).toEqual([OLD_TAKE])
  })

  it('reads what an older render left out as empty, a stored string as its number, and no job time as unknown', () => {
    const { videoSrtUrl: _s, videoVttUrl: _v, jobUpdatedAt: _t, ...partial } = BEFORE_TAKES
    expect(
      readNodeData('video', { ...partial, videoDurationMs: '8000', preset: 'wide' }).videoTakes,
    ).toEqual([{ ...OLD_TAKE, srtUrl: '', vttUrl: '', renderedAt: '', preset: '16:9' }])
  })

  it('is idempotent, and leaves nodes with takes or without a render as they are', () => {
    const once = flatResultAsTake.up(BEFORE_TAKES)
    expect(flatResultAsTake.up(once)).toBe(once)
    const withTakes = { ...BEFORE_TAKES, videoTakes: '[]' }
    expect(flatResultAsTake.up(withTakes)).toBe(withTakes)
    const fresh = videoNode.defaults()
    expect(flatResultAsTake.up(fresh)).toBe(fresh)
    expect(readNodeData('video', fresh).videoTakes).toEqual([])
  })

  it('keeps the old render as a take when the node renders again, and the new one as its current result', () => {
    const doc = new Y.Doc()
    const id = 'video-1700000000000-old'
    addNode(doc, {
      id,
      type: 'video',
      label: 'Video',
      position: { x: 0, y: 0 },
      data: BEFORE_TAKES,
      connectionPoints: 'both',
    })
    const stored = () => readNode(id, getNodesMap(doc).get(id))!.data
    const newTake: VideoTake = {
      ...OLD_TAKE,
      mp4Url: '/api/assets/new-mp4',
      srtUrl: '/api/assets/new-srt',
      vttUrl: '/api/assets/new-vtt',
      renderedAt: '2026-11-22T09:00:00.000Z',
    }
    // What the render job does: the node's takes, the new one in front, written back.
    const { kept } = addVideoTake(readNodeData('video', stored()).videoTakes, newTake)
    updateNodeData(doc, id, videoResultData(kept))
    expect(readNodeData('video', stored()).videoTakes).toEqual([newTake, OLD_TAKE])
    expect(stored()).toMatchObject({
      videoUrl: '/api/assets/new-mp4',
      videoSrtUrl: '/api/assets/new-srt',
      videoVttUrl: '/api/assets/new-vtt',
      videoDurationMs: 8000,
      videoInputHash: 'abc123',
    })
  })
})
