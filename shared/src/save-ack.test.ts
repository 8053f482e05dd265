import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  decodeSavedSnapshot,
  encodeSavedSnapshot,
  type PendingChange,
  readStoredPendingChange,
  snapshotCovers,
  storePendingChange,
  withDeletes,
} from './save-ack.ts'

/** Edits `doc`'s map `m`: true inserts a key, false deletes the oldest (or inserts if none). */
function edit(doc: Y.Doc, edits: readonly boolean[]): void {
  const map = doc.getMap<number>('m')
  for (const insert of edits) {
    doc.transact(() => {
      const first = map.keys().next()
      if (insert || first.done) map.set(`k${Y.getState(doc.store, doc.clientID)}`, 1)
      else map.delete(first.value)
    })
  }
}

describe('save-ack (the saved snapshot, issue 14 item 1)', () => {
  it('a snapshot covers a change exactly when the stored copy holds every insertion and deletion of it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }),
        fc.nat({ max: 20 }),
        (edits, storedAfter) => {
          const doc = new Y.Doc()
          const server = new Y.Doc()
          let change: PendingChange = { clock: 0, deletes: null }
          doc.on('afterTransaction', (tr: Y.Transaction) => {
            change = withDeletes(
              { clock: Y.getState(doc.store, doc.clientID), deletes: change.deletes },
              tr.deleteSet,
            )
          })
          edit(doc, edits.slice(0, storedAfter))
          Y.applyUpdate(server, Y.encodeStateAsUpdate(doc))
          edit(doc, edits.slice(storedAfter))
          const snapshot = decodeSavedSnapshot(encodeSavedSnapshot(server))!
          const everything = Y.snapshotContainsUpdate(snapshot, Y.encodeStateAsUpdate(doc))
          expect(snapshotCovers(snapshot, doc.clientID, change)).toBe(everything)
          const full = decodeSavedSnapshot(encodeSavedSnapshot(doc))!
          expect(snapshotCovers(full, doc.clientID, change)).toBe(true)
        },
      ),
    )
  })

  it('keeps a pending change on the device and reads it back, refusing anything else', () => {
    const doc = new Y.Doc()
    const map = doc.getMap('m')
    map.set('a', 1)
    map.delete('a')
    const ds = Y.snapshot(doc).ds
    const change: PendingChange = { clock: 1, deletes: ds }
    const back = readStoredPendingChange(5, storePendingChange(5, change))!
    expect(back.clock).toBe(1)
    expect(Y.equalDeleteSets(back.deletes!, ds)).toBe(true)
    const plain = storePendingChange(5, { clock: 4, deletes: null })
    expect(readStoredPendingChange(5, plain)).toEqual({ clock: 4, deletes: null })
    expect(readStoredPendingChange(6, plain)).toBe(null)
    expect(readStoredPendingChange(5, 7)).toEqual({ clock: 7, deletes: null })
    for (const bad of [null, 'x', 1.5, { clock: 1 }, new Uint8Array([255, 255, 255])]) {
      expect(readStoredPendingChange(5, bad)).toBe(null)
    }
    expect(decodeSavedSnapshot('***')).toBe(null)
  })
})
