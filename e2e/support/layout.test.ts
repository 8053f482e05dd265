import { describe, expect, it } from 'vitest'
import {
  centreOf,
  findByPseudo,
  findVideo,
  intersects,
  isInside,
  MEDIA_CONTROL_PSEUDO,
  parsePercent,
  type ProtocolNode,
} from './layout.ts'

describe('boxes', () => {
  const a = { x: 0, y: 0, width: 100, height: 50 }
  it('intersect when they share area, not when they only touch', () => {
    expect(intersects(a, { x: 99, y: 49, width: 10, height: 10 })).toBe(true)
    expect(intersects(a, { x: 100, y: 0, width: 10, height: 10 })).toBe(false)
    expect(intersects(a, { x: 0, y: 50, width: 10, height: 10 })).toBe(false)
  })
  it('lie inside another, give or take half a pixel', () => {
    expect(isInside({ x: -0.4, y: 0, width: 100.8, height: 50 }, a)).toBe(true)
    expect(isInside({ x: -1, y: 0, width: 10, height: 10 }, a)).toBe(false)
    expect(isInside({ x: 95, y: 45, width: 10, height: 5 }, a)).toBe(false)
    expect(centreOf(a)).toEqual({ x: 50, y: 25 })
  })
  it('reads the zoom as the controls show it', () => {
    expect(parsePercent('84%')).toBe(84)
    expect(parsePercent(' 100 % ')).toBe(100)
    expect(parsePercent('250')).toBeNaN()
  })
})

describe('media controls in a DevTools DOM tree', () => {
  // The shape Chromium answers DOM.getDocument({ pierce: true }) with (trimmed): a video
  // with its user-agent shadow root, whose menu list repeats the fullscreen button.
  let id = 0
  const node = (
    localName: string,
    attributes: string[] = [],
    more: Partial<ProtocolNode> = {},
  ): ProtocolNode => ({ nodeId: ++id, localName, attributes, ...more })
  const fullscreen = node('input', ['type', 'button', 'pseudo', MEDIA_CONTROL_PSEUDO.fullscreen])
  const menu = node('input', ['pseudo', MEDIA_CONTROL_PSEUDO.menu])
  const listed = node('input', ['pseudo', MEDIA_CONTROL_PSEUDO.fullscreen])
  const video = node('video', ['controls', '', 'src', '/api/assets/a.mp4'], {
    shadowRoots: [
      node('', [], {
        children: [
          node('div', ['pseudo', '-webkit-media-controls'], {
            children: [node('div', [], { children: [fullscreen, menu] }), listed],
          }),
        ],
      }),
    ],
  })
  const other = node('video', ['src', '/api/assets/b.mp4'])
  const root = node('#document', [], {
    children: [node('html', [], { children: [node('body', [], { children: [other, video] })] })],
  })

  it('finds the video by what it plays, and its buttons in tree order', () => {
    expect(findVideo(root, '/api/assets/a.mp4')).toBe(video)
    expect(findVideo(root, '/api/assets/c.mp4')).toBeNull()
    expect(findByPseudo(video, MEDIA_CONTROL_PSEUDO.fullscreen)).toEqual([fullscreen, listed])
    expect(findByPseudo(video, MEDIA_CONTROL_PSEUDO.menu)).toEqual([menu])
    expect(findByPseudo(other, MEDIA_CONTROL_PSEUDO.menu)).toEqual([])
  })
})
