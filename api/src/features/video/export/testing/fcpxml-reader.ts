/**
 * A strict XML reader and an FCPXML structure check for tests (issue 24 item 3). Apple's
 * FCPXML DTD is not available offline and no Debian package ships one (ADR 018), so the
 * check is a DTD-equivalent written here for the elements the export writes: each element's
 * allowed parents, children in order, required and allowed attributes, and FCPXML's time
 * values (`"0s"`, `"N/Ds"`), after a well-formedness parse that refuses what an XML parser
 * refuses (unbalanced or unknown entities, unquoted attributes, duplicated attributes,
 * stray `<` or `&`, mismatched end tags, text outside the root).
 */

export interface XmlElement {
  name: string
  attrs: Record<string, string>
  children: XmlElement[]
}

const NAME = /^[A-Za-z_][A-Za-z0-9._:-]*$/

function decode(text: string, where: string): string {
  if (text.includes('<')) throw new Error(`XML: a raw "<" in ${where}`)
  return text.replace(/&([A-Za-z0-9#]+);|&/g, (match, entity: string | undefined) => {
    if (entity === undefined) throw new Error(`XML: a raw "&" in ${where}`)
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
    if (entity in named) return named[entity]!
    const num = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(entity)
    if (num) {
      const n = num[1]!
      return String.fromCodePoint(n.startsWith('x') ? parseInt(n.slice(1), 16) : Number(n))
    }
    throw new Error(`XML: unknown entity &${entity}; in ${where}`)
  })
}

/**
 * Parses an XML document (declaration, an optional DOCTYPE without an internal subset, one
 * root element; comments are allowed).
 * @throws Error at the first thing that makes it not well-formed.
 */
export function parseXml(text: string): XmlElement {
  let at = 0
  const rest = () => text.slice(at)
  const decl = /^<\?xml\s+version="1\.0"(\s+encoding="UTF-8")?\s*\?>/.exec(rest())
  if (!decl) throw new Error('XML: no declaration')
  at += decl[0].length
  const skip = () => {
    for (;;) {
      const ws = /^\s+/.exec(rest())
      if (ws) at += ws[0].length
      const comment = /^<!--[\s\S]*?-->/.exec(rest())
      if (comment) at += comment[0].length
      else return
    }
  }
  skip()
  const doctype = /^<!DOCTYPE\s+([A-Za-z]+)\s*>/.exec(rest())
  if (doctype) at += doctype[0].length
  skip()
  const stack: XmlElement[] = []
  let root: XmlElement | null = null
  while (at < text.length) {
    if (stack.length === 0 && root) {
      skip()
      if (at < text.length) throw new Error('XML: content after the root element')
      break
    }
    const lt = text.indexOf('<', at)
    if (lt < 0) throw new Error('XML: unclosed elements')
    const between = text.slice(at, lt)
    if (stack.length === 0 && between.trim()) throw new Error('XML: text outside the root')
    decode(between, 'text')
    at = lt
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at)
      if (end < 0) throw new Error('XML: unclosed comment')
      at = end + 3
      continue
    }
    if (text.startsWith('</', at)) {
      const m = /^<\/([^\s>]+)\s*>/.exec(rest())
      const open = stack.pop()
      if (!m || !open || m[1] !== open.name) {
        throw new Error(`XML: end tag ${m?.[1] ?? '?'} does not close ${open?.name ?? 'anything'}`)
      }
      at += m[0].length
      continue
    }
    const m = /^<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(rest())
    if (!m || !NAME.test(m[1]!)) throw new Error(`XML: a malformed tag at ${at}`)
    const attrs: Record<string, string> = {}
    for (const a of m[2]!.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      if (!NAME.test(a[1]!)) throw new Error(`XML: bad attribute name ${a[1]}`)
      if (a[1]! in attrs) throw new Error(`XML: attribute ${a[1]} twice on <${m[1]}>`)
      attrs[a[1]!] = decode(a[2] ?? a[3] ?? '', `attribute ${a[1]}`)
    }
    const element: XmlElement = { name: m[1]!, attrs, children: [] }
    if (stack.length === 0) {
      if (root) throw new Error('XML: two root elements')
      root = element
    } else stack.at(-1)!.children.push(element)
    if (m[3] !== '/') stack.push(element)
    at += m[0].length
  }
  if (!root || stack.length > 0) throw new Error('XML: unclosed elements')
  return root
}

/** FCPXML's time value: `0s`, `Ns` or `N/Ds`. */
export const FCPXML_TIME = /^(0|[1-9][0-9]*)(\/[1-9][0-9]*)?s$/

/** A time attribute as frames at `fps`. @throws Error when it is no time or not on a frame. */
export function framesOf(value: string | undefined, fps: number): number {
  if (value === undefined || !FCPXML_TIME.test(value)) throw new Error(`FCPXML: bad time ${value}`)
  const [num, den = '1'] = value.slice(0, -1).split('/')
  const frames = (Number(num) * fps) / Number(den)
  if (!Number.isInteger(frames)) throw new Error(`FCPXML: ${value} is not on a frame`)
  return frames
}

interface Rule {
  /** Children in order: each a group of names that may repeat (`*`) or appear once (`?`). */
  content: { names: string[]; many: boolean; required?: boolean }[]
  required: string[]
  optional: string[]
  times?: string[]
}

const CONNECTED = ['asset-clip', 'video', 'clip', 'audio', 'title']
const TIME_ATTRS = ['offset', 'duration', 'start']

/**
 * The FCPXML 1.10 content models of the elements the export writes (the subset of Apple's
 * DTD they use; any element or attribute not here is refused).
 */
const RULES: Record<string, Rule> = {
  fcpxml: {
    content: [
      { names: ['resources'], many: false },
      { names: ['library'], many: false },
    ],
    required: ['version'],
    optional: [],
  },
  resources: {
    content: [{ names: ['format', 'asset'], many: true }],
    required: [],
    optional: [],
  },
  format: {
    content: [],
    required: ['id'],
    optional: ['name', 'frameDuration', 'width', 'height', 'colorSpace'],
    times: ['frameDuration'],
  },
  asset: {
    content: [{ names: ['media-rep'], many: true, required: true }],
    required: ['id', 'duration'],
    optional: [
      'name',
      'start',
      'hasVideo',
      'format',
      'hasAudio',
      'audioSources',
      'audioChannels',
      'audioRate',
    ],
    times: ['start', 'duration'],
  },
  'media-rep': { content: [], required: ['kind', 'src'], optional: ['sig', 'suggestedFilename'] },
  library: { content: [{ names: ['event'], many: true }], required: [], optional: ['location'] },
  event: { content: [{ names: ['project'], many: true }], required: [], optional: ['name', 'uid'] },
  project: {
    content: [{ names: ['sequence'], many: false, required: true }],
    required: [],
    optional: ['name', 'uid'],
  },
  sequence: {
    content: [{ names: ['spine'], many: false, required: true }],
    required: ['format'],
    optional: ['duration', 'tcStart', 'tcFormat', 'audioLayout', 'audioRate'],
    times: ['duration', 'tcStart'],
  },
  spine: {
    content: [{ names: ['asset-clip', 'video', 'gap', 'transition'], many: true }],
    required: [],
    optional: ['name', 'offset', 'format'],
  },
  'asset-clip': {
    content: [
      { names: ['adjust-volume'], many: false },
      { names: CONNECTED, many: true },
    ],
    required: ['ref', 'duration'],
    optional: ['lane', 'offset', 'name', 'start', 'format', 'tcFormat', 'audioRole', 'enabled'],
    times: TIME_ATTRS,
  },
  video: {
    content: [{ names: CONNECTED, many: true }],
    required: ['ref', 'duration'],
    optional: ['lane', 'offset', 'name', 'start', 'role', 'enabled'],
    times: TIME_ATTRS,
  },
  gap: {
    content: [{ names: CONNECTED, many: true }],
    required: ['duration'],
    optional: ['name', 'offset', 'start', 'enabled'],
    times: TIME_ATTRS,
  },
  transition: {
    content: [],
    required: ['duration'],
    optional: ['name', 'offset'],
    times: ['offset', 'duration'],
  },
  'adjust-volume': { content: [], required: ['amount'], optional: [] },
}

/**
 * Checks an FCPXML document against {@link RULES}, and that every `ref` names a resource.
 * @throws Error naming the first element that breaks a rule.
 */
export function checkFcpxml(root: XmlElement, fps: number): void {
  if (root.name !== 'fcpxml') throw new Error('FCPXML: the root is not <fcpxml>')
  const ids = new Set<string>()
  const refs: string[] = []
  const visit = (el: XmlElement, path: string) => {
    const rule = RULES[el.name]
    if (!rule) throw new Error(`FCPXML: <${el.name}> is not allowed (${path})`)
    for (const a of rule.required) {
      if (!(a in el.attrs)) throw new Error(`FCPXML: <${el.name}> needs ${a} (${path})`)
    }
    for (const a of Object.keys(el.attrs)) {
      if (!rule.required.includes(a) && !rule.optional.includes(a)) {
        throw new Error(`FCPXML: <${el.name}> has no attribute ${a} (${path})`)
      }
    }
    for (const a of rule.times ?? []) if (a in el.attrs) framesOf(el.attrs[a], fps)
    if (el.attrs.id) ids.add(el.attrs.id)
    if (el.attrs.ref) refs.push(el.attrs.ref)
    if (el.attrs.format) refs.push(el.attrs.format)
    let group = 0
    const seen = new Map<number, number>()
    for (const child of el.children) {
      while (group < rule.content.length && !rule.content[group]!.names.includes(child.name)) {
        group++
      }
      const g = rule.content[group]
      if (!g)
        throw new Error(`FCPXML: <${child.name}> is not allowed here in <${el.name}> (${path})`)
      seen.set(group, (seen.get(group) ?? 0) + 1)
      if (!g.many && seen.get(group)! > 1) {
        throw new Error(`FCPXML: <${child.name}> twice in <${el.name}> (${path})`)
      }
    }
    rule.content.forEach((g, i) => {
      if (g.required && !seen.get(i)) {
        throw new Error(`FCPXML: <${el.name}> needs <${g.names.join('|')}> (${path})`)
      }
    })
    el.children.forEach((c, i) => visit(c, `${path}/${c.name}[${i}]`))
  }
  visit(root, 'fcpxml')
  for (const r of refs) if (!ids.has(r)) throw new Error(`FCPXML: ref ${r} names no resource`)
}

/** Every element named `name` under `el`, depth first. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => findAll(c, name))]
}
