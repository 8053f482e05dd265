import type { Locator, Page } from '@playwright/test'

/**
 * Layout checks for browser tests (issues 14 and 20): boxes, what a person would click at a
 * point, the zoom the canvas shows, and where a `<video>`'s own controls are.
 */

/** A box on the page in CSS px, as Playwright's `boundingBox()` gives it. */
export interface Box {
  x: number
  y: number
  width: number
  height: number
}

/** True when two boxes share area (touching edges do not). */
export function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

/** True when `inner` lies inside `outer`, to `tolerance` px (layout rounds to fractions). */
export function isInside(inner: Box, outer: Box, tolerance = 0.5): boolean {
  return (
    inner.x >= outer.x - tolerance &&
    inner.y >= outer.y - tolerance &&
    inner.x + inner.width <= outer.x + outer.width + tolerance &&
    inner.y + inner.height <= outer.y + outer.height + tolerance
  )
}

/** The centre of a box. */
export function centreOf(box: Box): { x: number; y: number } {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** "84%" as 84; NaN for anything else. */
export function parsePercent(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text)
  return match ? Number(match[1]) : Number.NaN
}

/** The zoom the canvas controls show, in percent. */
export async function shownZoomPercent(page: Page): Promise<number> {
  const text = await page.getByRole('status', { name: 'Zoom level' }).textContent()
  return parsePercent(text ?? '')
}

/**
 * What covers `target` at `point` (page px): null when the topmost element there (what a
 * click would reach, `document.elementFromPoint`) is `target` or inside it, else a short
 * description of that element ("aside[aria-labelledby=nodes-library-title]"). The native
 * controls of a `<video>` are in the browser's own shadow tree, so there they count as the
 * video.
 */
export async function coveringAt(
  target: Locator,
  point: { x: number; y: number },
): Promise<string | null> {
  // (Run in the page; the element types are the DOM's, which these tests are typed without.)
  type El = {
    ownerDocument: { elementFromPoint(x: number, y: number): El | null }
    contains(other: El): boolean
    localName: string
    getAttribute(name: string): string | null
  }
  return target.evaluate((element, { x, y }) => {
    const self = element as unknown as El
    const hit = self.ownerDocument.elementFromPoint(x, y)
    if (hit && self.contains(hit)) return null
    if (!hit) return 'nothing (outside the page)'
    const named = ['aria-label', 'aria-labelledby', 'class']
      .map((name) => [name, hit.getAttribute(name)] as const)
      .find(([, value]) => value)
    return named ? `${hit.localName}[${named[0]}=${named[1]}]` : hit.localName
  }, point)
}

/**
 * The `pseudo` names Chromium gives the buttons of its native media controls: the
 * fullscreen button and the menu (more options, "⋮") button.
 */
export const MEDIA_CONTROL_PSEUDO = {
  fullscreen: '-webkit-media-controls-fullscreen-button',
  menu: '-internal-media-controls-overflow-button',
} as const

/** A node of the DevTools protocol's DOM tree (the fields read here). */
export interface ProtocolNode {
  nodeId: number
  localName?: string
  attributes?: string[]
  children?: ProtocolNode[]
  shadowRoots?: ProtocolNode[]
  contentDocument?: ProtocolNode
}

function attribute(node: ProtocolNode, name: string): string | undefined {
  const attrs = node.attributes ?? []
  for (let i = 0; i + 1 < attrs.length; i += 2) if (attrs[i] === name) return attrs[i + 1]
  return undefined
}

/** Every node of `root`'s tree (shadow roots and frames too) that `match` accepts, in order. */
export function findNodes(
  root: ProtocolNode,
  match: (node: ProtocolNode) => boolean,
): ProtocolNode[] {
  const found: ProtocolNode[] = []
  const walk = (node: ProtocolNode) => {
    if (match(node)) found.push(node)
    for (const child of node.shadowRoots ?? []) walk(child)
    for (const child of node.children ?? []) walk(child)
    if (node.contentDocument) walk(node.contentDocument)
  }
  walk(root)
  return found
}

/** The `<video>` of `root`'s tree playing `src`, or null. */
export function findVideo(root: ProtocolNode, src: string): ProtocolNode | null {
  return findNodes(root, (n) => n.localName === 'video' && attribute(n, 'src') === src)[0] ?? null
}

/** The nodes of a media element's control tree with the `pseudo` name given. */
export function findByPseudo(root: ProtocolNode, pseudo: string): ProtocolNode[] {
  return findNodes(root, (n) => attribute(n, 'pseudo') === pseudo)
}

/**
 * Where `video`'s (a `<video controls>`) fullscreen and menu buttons are on the page, from
 * Chromium's DevTools protocol (a page cannot look into the browser's shadow tree of its
 * controls): null for one that is not laid out (the controls are hidden, or the browser
 * moved the button into the menu).
 */
export async function mediaControlBoxes(
  page: Page,
  video: Locator,
): Promise<Record<keyof typeof MEDIA_CONTROL_PSEUDO, Box | null>> {
  const src = await video.getAttribute('src')
  if (!src) throw new Error('the video has no src')
  const cdp = await page.context().newCDPSession(page)
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true })
    const element = findVideo(root, src)
    if (!element) throw new Error(`no <video> plays ${src}`)
    const boxOf = async (pseudo: string): Promise<Box | null> => {
      // The menu's list has a fullscreen entry too, not laid out until the menu opens.
      for (const node of findByPseudo(element, pseudo)) {
        const model = await cdp
          .send('DOM.getBoxModel', { nodeId: node.nodeId })
          .then((r) => r.model)
          .catch(() => null)
        if (!model) continue
        // The border quad, corners clockwise from the top-left (the canvas only scales it).
        const [x1, y1, x2, , , y3] = model.border as [
          number,
          number,
          number,
          number,
          number,
          number,
        ]
        if (x2 - x1 <= 0 || y3 - y1 <= 0) continue
        return { x: x1, y: y1, width: x2 - x1, height: y3 - y1 }
      }
      return null
    }
    return {
      fullscreen: await boxOf(MEDIA_CONTROL_PSEUDO.fullscreen),
      menu: await boxOf(MEDIA_CONTROL_PSEUDO.menu),
    }
  } finally {
    await cdp.detach()
  }
}
