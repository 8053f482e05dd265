import { shortHash } from './short-hash.ts'
import type { StoredTimeline } from './timeline.ts'

/**
 * What a render of a Video node depends on (issue 24 item 1): the hash of its graph inputs
 * (`VideoInputs.hash`) and, once the node has a timeline, its cuts (in id order, so every
 * reader of the document agrees) and settings. A node without timeline registers (`null`)
 * keeps its inputs' hash, so takes from before timelines stay current. The render stores it
 * on its take; the Stale badge compares it with the one the canvas computes now.
 */
export function filmHash(inputsHash: string, timeline: StoredTimeline | null): string {
  if (!timeline) return inputsHash
  const cuts = [...timeline.cuts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return shortHash(JSON.stringify([inputsHash, cuts, timeline.settings]))
}
