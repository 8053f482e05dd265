import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { pinnedInputArgs, referenceFileProblem } from './external-input.ts'

const text = (s: string) => new TextEncoder().encode(s)

describe('referenceFileProblem (issue 40 item 4)', () => {
  it.each([
    ['an HLS playlist', '#EXTM3U\n#EXTINF:2,\nfile:///etc/x.ts\n', /HLS or M3U playlist/],
    ['an M3U list without its header', '#EXTINF:2,\nhttp://10.0.0.1/x.ts\n', /HLS or M3U/],
    ['an HLS playlist after a BOM and blank lines', '\uFEFF\n\n  #EXTM3U\nx.ts\n', /HLS/],
    ['an ffconcat list', "ffconcat version 1.0\nfile 'x.ts'\n", /ffconcat list/],
    ['a concat list', "# made by hand\nfile '/etc/x.ts'\nduration 2\n", /a concat list/],
    ['an SDP description', 'v=0\no=- 0 0 IN IP4 10.0.0.1\nm=video 5004 RTP/AVP 96\n', /SDP/],
    ['a PLS playlist', '[playlist]\nFile1=http://127.0.0.1/x\n', /PLS playlist/],
    ['a DASH manifest', '<?xml version="1.0"?><MPD><BaseURL>file:///x</BaseURL></MPD>', /XML/],
    ['an ffmetadata file', ';FFMETADATA1\ntitle=x\n', /ffmetadata/],
  ])('refuses %s as a file that names others', (_, bytes, words) => {
    const problem = referenceFileProblem(text(bytes), 'clip', 'The clip')
    expect(problem).toMatch(words)
    expect(problem).toMatch(/^The clip is .*, not a video: .*never opened\.$/)
  })

  it('refuses any other text, and an empty file, in words naming the kind', () => {
    expect(referenceFileProblem(text('<!doctype html><p>Oops'), 'clip', 'The clip')).toBe(
      'The clip is text, not a video.',
    )
    expect(referenceFileProblem(text('hello'), 'audio-upload', 'This file')).toBe(
      'This file is text, not audio.',
    )
    expect(referenceFileProblem(new Uint8Array(0), 'image', 'The picture')).toBe(
      'The picture is empty, not a picture.',
    )
  })

  it('lets binary media through to the demuxer checks', () => {
    // An MP4's first box, a PNG's signature, FLAC's marker and STREAMINFO header.
    const mp4 = new Uint8Array([0, 0, 0, 0x20, ...text('ftypisom'), 0, 0, 2, 0])
    const png = new Uint8Array([0x89, ...text('PNG'), 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])
    const flac = new Uint8Array([...text('fLaC'), 0, 0, 0, 0x22, 0x12, 0, 0x12, 0])
    for (const head of [mp4, png, flac]) {
      expect(referenceFileProblem(head, 'clip', 'The clip')).toBeNull()
    }
  })
})

describe('pinnedInputArgs (issue 40 item 4)', () => {
  it('pins the file protocol and the demuxers of each kind, then -i and the path', () => {
    expect(pinnedInputArgs('/w/clip', 'clip', 'The clip')).toEqual([
      ...['-protocol_whitelist', 'file'],
      ...['-format_whitelist', 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm'],
      ...['-i', '/w/clip'],
    ])
    expect(pinnedInputArgs('/w/clip.mp4', 'stored-clip', 'The clip')).toEqual([
      ...['-protocol_whitelist', 'file', '-f', 'mov', '-i', '/w/clip.mp4'],
    ])
    expect(pinnedInputArgs('/w/p', 'image', 'The picture')).toEqual([
      ...['-protocol_whitelist', 'file', '-format_whitelist', 'png_pipe,jpeg_pipe,webp_pipe'],
      ...['-i', '/w/p'],
    ])
    expect(pinnedInputArgs('/w/m', 'stored-music', 'The music').slice(0, 4)).toEqual([
      ...['-protocol_whitelist', 'file', '-format_whitelist', 'flac,wav'],
    ])
    const upload = pinnedInputArgs('/w/u', 'audio-upload', 'This file')[3]!.split(',')
    expect(upload).toContain('flac')
    expect(upload).not.toContain('hls')
    expect(upload).not.toContain('concat')
  })

  it('refuses a relative path', () => {
    expect(() => pinnedInputArgs('clip.mp4', 'clip', 'The clip')).toThrow(/absolute path/)
  })
})

/**
 * Every file of the apps' sources that passes `-i` to ffmpeg itself, and how many times:
 * each reads only files Reelgraph made (never a file from outside as it came). Any other
 * `'-i'` must come from `external-input.ts`.
 */
const OWN_FILES_ONLY: Record<string, { inputs: number; why: string }> = {
  'media/src/render/audio-graph.ts': {
    inputs: 5,
    why: 'narration WAVs renderVideo re-wrote, its own mix, levelled audio, concat list and segments',
  },
  'media/src/render/filter-graph.ts': {
    inputs: 2,
    why: 'stills sharp fitted and re-encoded as JPEG (stills.ts), subtitle PNGs it drew',
  },
  'media/src/render/motion-draft.ts': {
    inputs: 2,
    why: 'the JPEG sharp re-encoded from the picture, the mask PNG it drew',
  },
}

/** The workspaces whose code runs ffmpeg, from the repository's root. */
const SCANNED = ['media/src', 'api/src', 'worker/src', 'sync-server/src']

async function sourceFiles(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => [])
  const files: string[] = []
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'testing' && entry.name !== 'node_modules') {
        files.push(...(await sourceFiles(root, path)))
      }
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      files.push(path)
    }
  }
  return files
}

describe('ffmpeg inputs outside external-input.ts (issue 40 item 4)', () => {
  it('exist only in files that read Reelgraph’s own intermediate files', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url))
    const helper = relative(root, fileURLToPath(new URL('./external-input.ts', import.meta.url)))
    const found: Record<string, number> = {}
    for (const dir of SCANNED) {
      for (const file of await sourceFiles(root, dir)) {
        if (file === helper) continue
        const source = await readFile(join(root, file), 'utf8')
        const inputs = source.match(/(['"`])-i\1/g)?.length ?? 0
        if (inputs > 0) found[file] = inputs
        expect(source, `${file} runs ffprobe: read through external-input.ts`).not.toMatch(
          /(['"`])ffprobe\1/,
        )
      }
    }
    // A file here that is not in OWN_FILES_ONLY (or has more inputs than listed) opens a file
    // with its own '-i': use externalInputArgs (or pinnedInputArgs) from external-input.ts.
    expect(found).toEqual(
      Object.fromEntries(
        Object.entries(OWN_FILES_ONLY).map(([file, { inputs }]) => [file, inputs]),
      ),
    )
  })
})
