import type { EditAudio, EditList, ExportMedia, VideoTrackItem } from './edit-list.ts'

/**
 * An edit list as an OpenTimelineIO file (`.otio`, JSON; issue 24 item 3), in OTIO's own
 * serialized schema: `Timeline.1` → `Stack.1` → one video `Track.1` (`Clip.2` with an
 * `ExternalReference.1` whose `target_url` is relative to the file, `Gap.1` for the cards,
 * `Transition.1` across the cut points) and two audio tracks (narration, music; `Gap.1`
 * between their clips). Every time is a `RationalTime.1` at the edit list's rate. What OTIO
 * has no field for (card text and colours, music level, fades and ducking) is in `metadata`
 * under `reelgraph`.
 */

/** The OTIO file's media type. */
export const OTIO_MIME_TYPE = 'application/vnd.opentimelineio+json'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

const time = (value: number, rate: number): Json => ({
  OTIO_SCHEMA: 'RationalTime.1',
  rate,
  value,
})

const range = (start: number, duration: number, rate: number): Json => ({
  OTIO_SCHEMA: 'TimeRange.1',
  duration: time(duration, rate),
  start_time: time(start, rate),
})

/** The fields every `Item` serializes besides its own. */
const item = (name: string, sourceRange: Json, metadata: Json = {}) => ({
  metadata,
  name,
  source_range: sourceRange,
  effects: [],
  markers: [],
  enabled: true,
})

function reference(media: ExportMedia, rate: number): Json {
  return {
    OTIO_SCHEMA: 'ExternalReference.1',
    metadata: {},
    name: media.path.split('/').pop()!,
    // Stills have no length: any range of them is available.
    available_range: media.frames === null ? null : range(0, media.frames, rate),
    available_image_bounds: null,
    target_url: media.path,
  }
}

function clip(
  name: string,
  media: ExportMedia,
  sourceStart: number,
  frames: number,
  rate: number,
  metadata: Json = {},
): Json {
  return {
    OTIO_SCHEMA: 'Clip.2',
    ...item(name, range(sourceStart, frames, rate), metadata),
    media_references: { DEFAULT_MEDIA: reference(media, rate) },
    active_media_reference_key: 'DEFAULT_MEDIA',
  }
}

const gap = (name: string, frames: number, rate: number, metadata: Json = {}): Json => ({
  OTIO_SCHEMA: 'Gap.1',
  ...item(name, range(0, frames, rate), metadata),
})

function videoItem(entry: VideoTrackItem, rate: number): Json {
  switch (entry.type) {
    case 'clip':
      return clip(entry.name, entry.media, entry.sourceStart, entry.frames, rate, {
        reelgraph: { cutId: entry.pieceId, sceneId: entry.sceneId },
      })
    case 'gap':
      return gap(entry.name, entry.frames, rate, {
        reelgraph: { card: entry.pieceId, ...(entry.card ?? {}) },
      })
    case 'transition':
      return {
        OTIO_SCHEMA: 'Transition.1',
        metadata: { reelgraph: { transition: entry.transition } },
        name: entry.name,
        in_offset: time(entry.inOffset, rate),
        out_offset: time(entry.outOffset, rate),
        // OTIO names one kind; the others are custom, named as an editor names them.
        transition_type: entry.transition === 'crossfade' ? 'SMPTE_Dissolve' : 'Custom_Transition',
      }
  }
}

/** An audio track's children: its clips at their places, gaps between. */
function audioChildren(clips: readonly EditAudio[], rate: number): Json[] {
  const children: Json[] = []
  let at = 0
  for (const c of clips) {
    if (c.start > at) children.push(gap('', c.start - at, rate))
    children.push(
      clip(c.name, c.media, c.sourceStart, c.frames, rate, {
        reelgraph: { gainDb: c.gainDb },
      }),
    )
    at = c.start + c.frames
  }
  return children
}

const track = (name: string, kind: 'Video' | 'Audio', children: Json[], metadata: Json = {}) => ({
  OTIO_SCHEMA: 'Track.1',
  ...item(name, null, metadata),
  children,
  kind,
})

/** The edit list as an `.otio` file's text (JSON, indented). */
export function writeOtio(edit: EditList): string {
  const rate = edit.fps
  const timeline: Json = {
    OTIO_SCHEMA: 'Timeline.1',
    metadata: {
      reelgraph: { width: edit.width, height: edit.height, fps: edit.fps },
    },
    name: edit.name,
    global_start_time: time(0, rate),
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      ...item('tracks', null),
      children: [
        track(
          'Video',
          'Video',
          edit.video.map((v) => videoItem(v, rate)),
        ),
        track('Narration', 'Audio', audioChildren(edit.narration, rate)),
        track('Music', 'Audio', audioChildren(edit.music, rate), {
          reelgraph: { ...edit.notes },
        }),
      ],
    },
  }
  return `${JSON.stringify(timeline, null, 2)}\n`
}
