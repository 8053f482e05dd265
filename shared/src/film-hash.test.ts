import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { filmHash } from './film-hash.ts'
import { DEFAULT_CUT, storedTimelineOf, type TimelineCut } from './timeline.ts'
import { editCut, editTimelineSettings, getTimelinesMap } from './timeline-doc.ts'

const INPUTS = 'abc123'

/** Scene `sceneId`'s cut, as the film gives it before any edit. */
const cut = (sceneId: string): TimelineCut => ({ id: `scene:${sceneId}`, sceneId, ...DEFAULT_CUT })

/** Video node video-1-vv's timeline as stored in `doc`, as the server and the canvas read it. */
const stored = (doc: Y.Doc) => storedTimelineOf(getTimelinesMap(doc).entries(), 'video-1-vv')

describe('filmHash (issue 24 item 1: a timeline edit makes the last take Stale)', () => {
  it('is the inputs hash while the node has no timeline, so older takes stay current', () => {
    const doc = new Y.Doc()
    expect(stored(doc)).toBeNull()
    expect(filmHash(INPUTS, stored(doc))).toBe(INPUTS)
  })

  it('changes with a trim or a setting, and comes back when the edit is undone', () => {
    const doc = new Y.Doc()
    editCut(doc, 'video-1-vv', cut('scene-1-aa'), { holdMs: 4000 })
    const trimmed = filmHash(INPUTS, stored(doc))
    expect(trimmed).not.toBe(INPUTS)
    editCut(doc, 'video-1-vv', cut('scene-1-aa'), { holdMs: 5000 })
    expect(filmHash(INPUTS, stored(doc))).not.toBe(trimmed)
    editCut(doc, 'video-1-vv', cut('scene-1-aa'), { holdMs: 4000 })
    expect(filmHash(INPUTS, stored(doc))).toBe(trimmed)
    editTimelineSettings(doc, 'video-1-vv', { captionStyle: 'bold' })
    expect(filmHash(INPUTS, stored(doc))).not.toBe(trimmed)
    expect(filmHash('other', stored(doc))).not.toBe(filmHash(INPUTS, stored(doc)))
  })

  it('is the same for two documents holding the same registers written in another order', () => {
    const a = new Y.Doc()
    const b = new Y.Doc()
    editCut(a, 'video-1-vv', cut('scene-1-aa'), { holdMs: 4000 })
    editCut(a, 'video-1-vv', cut('scene-2-bb'), { transition: 'dip' })
    editCut(b, 'video-1-vv', cut('scene-2-bb'), { transition: 'dip' })
    editCut(b, 'video-1-vv', cut('scene-1-aa'), { holdMs: 4000 })
    expect(filmHash(INPUTS, stored(a))).toBe(filmHash(INPUTS, stored(b)))
  })
})
