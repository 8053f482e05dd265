import type { EditAudio, EditList, ExportMedia, VideoTrackItem } from './edit-list.ts'

/**
 * An edit list as Final Cut Pro XML (`.fcpxml`, version 1.10; issue 24 item 3): `resources`
 * (one `format` for the film's frame size and rate, an `asset` per file with its
 * `media-rep`), then `library` → `event` → `project` → `sequence` → `spine`: the primary
 * storyline of `asset-clip` (a scene's clip), `video` (a still picture: FCPXML's element for
 * an image asset), `gap` (a title or end card, which the renderer draws) and `transition`
 * elements across the cut points; the narration (lane -1) and the music (lane -2, its level
 * as `adjust-volume`) are connected clips of the storyline item they start in. Times are
 * FCPXML's rational seconds (`"7/2s"`, `"0s"`); every name and path is escaped.
 */

/** The FCPXML version written. */
export const FCPXML_VERSION = '1.10'
/** The FCPXML file's media type. */
export const FCPXML_MIME_TYPE = 'application/xml'

/** Escapes text for an XML attribute value or text node. */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!,
  )
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

/** `frames` at `fps` as FCPXML's rational seconds, reduced: `"0s"`, `"2s"`, `"7/2s"`. */
export function rationalTime(frames: number, fps: number): string {
  if (!Number.isInteger(frames) || frames < 0) throw new RangeError(`Bad frame count ${frames}`)
  if (frames === 0) return '0s'
  const d = gcd(frames, fps)
  const num = frames / d
  const den = fps / d
  return den === 1 ? `${num}s` : `${num}/${den}s`
}

type Attrs = Record<string, string | number | undefined>

function tag(name: string, attrs: Attrs, children: string[] = [], indent = ''): string {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('')
  if (children.length === 0) return `${indent}<${name}${a}/>`
  return `${indent}<${name}${a}>\n${children.join('\n')}\n${indent}</${name}>`
}

/** The FCPXML of an edit list (a whole document, with its XML declaration). */
export function writeFcpxml(edit: EditList): string {
  const fps = edit.fps
  const t = (frames: number) => rationalTime(frames, fps)
  const assetIds = new Map<string, string>()
  const assets: string[] = []
  const assetOf = (media: ExportMedia): string => {
    const known = assetIds.get(media.path)
    if (known) return known
    const id = `r${assetIds.size + 2}`
    assetIds.set(media.path, id)
    const video = media.kind !== 'audio'
    const audio = media.kind === 'audio' || media.hasAudio
    assets.push(
      tag(
        'asset',
        {
          id,
          name: media.path
            .split('/')
            .pop()!
            .replace(/\.[^.]+$/, ''),
          start: '0s',
          duration: t(media.frames ?? 0),
          hasVideo: video ? 1 : undefined,
          format: video ? 'r1' : undefined,
          hasAudio: audio ? 1 : undefined,
          audioSources: audio ? 1 : undefined,
        },
        [tag('media-rep', { kind: 'original-media', src: media.path }, [], '      ')],
        '    ',
      ),
    )
    return id
  }

  // Storyline items with their place on the film, to hang connected clips on.
  const primary = edit.video.filter((v) => v.type !== 'transition')
  const connected = new Map<VideoTrackItem, { audio: EditAudio; lane: number }[]>()
  const hang = (audio: EditAudio, lane: number) => {
    const parent =
      primary.find((p) => audio.start >= p.start && audio.start < p.start + p.frames) ??
      primary.at(-1)!
    connected.set(parent, [...(connected.get(parent) ?? []), { audio, lane }])
  }
  for (const n of edit.narration) hang(n, -1)
  for (const m of edit.music) hang(m, -2)

  const spine: string[] = []
  const indent = '            '
  for (const item of edit.video) {
    if (item.type === 'transition') {
      spine.push(
        tag(
          'transition',
          {
            name: item.name,
            offset: t(item.at - item.inOffset),
            duration: t(item.inOffset + item.outOffset),
          },
          [],
          indent,
        ),
      )
      continue
    }
    // A connected clip's offset is in its parent's own time, which starts at its `start`.
    const parentStart = item.type === 'clip' ? item.sourceStart : 0
    const children = (connected.get(item) ?? []).map(({ audio, lane }) =>
      tag(
        'asset-clip',
        {
          ref: assetOf(audio.media),
          lane,
          name: audio.name,
          offset: t(parentStart + audio.start - item.start),
          duration: t(audio.frames),
          start: t(audio.sourceStart),
        },
        audio.gainDb === 0
          ? []
          : [tag('adjust-volume', { amount: `${audio.gainDb}dB` }, [], `${indent}    `)],
        `${indent}  `,
      ),
    )
    if (item.type === 'gap') {
      spine.push(
        tag(
          'gap',
          { name: item.name, offset: t(item.start), duration: t(item.frames), start: '0s' },
          children,
          indent,
        ),
      )
    } else {
      spine.push(
        tag(
          item.media.kind === 'image' ? 'video' : 'asset-clip',
          {
            ref: assetOf(item.media),
            name: item.name,
            offset: t(item.start),
            duration: t(item.frames),
            start: t(item.sourceStart),
          },
          children,
          indent,
        ),
      )
    }
  }

  const format = tag(
    'format',
    { id: 'r1', frameDuration: t(1), width: edit.width, height: edit.height },
    [],
    '    ',
  )
  const sequence = tag(
    'sequence',
    {
      format: 'r1',
      duration: t(edit.totalFrames),
      tcStart: '0s',
      tcFormat: 'NDF',
      audioLayout: 'stereo',
      audioRate: '48k',
    },
    [tag('spine', {}, spine, '          ')],
    '        ',
  )
  const library = tag(
    'library',
    {},
    [
      tag(
        'event',
        { name: 'Reelgraph' },
        [tag('project', { name: edit.name }, [sequence], '      ')],
        '    ',
      ),
    ],
    '  ',
  )
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE fcpxml>',
    tag('fcpxml', { version: FCPXML_VERSION }, [
      tag('resources', {}, [format, ...assets], '  '),
      library,
    ]),
    '',
  ].join('\n')
}
