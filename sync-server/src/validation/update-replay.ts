import * as Y from 'yjs'

/**
 * What applying one Yjs update to a document would do, worked out from the update's structs
 * and the document as it is, without applying anything (issue 23 item 1, decision 011).
 *
 * Yjs' own decoder reads the update (`Y.decodeUpdate`); what follows mirrors, step by step,
 * what `Y.applyUpdate` does with those structs (yjs 13.6 `readUpdateV2`,
 * `integrateStructs`, `Item.getMissing`, `Item.integrate`, `readAndApplyDeleteSet`):
 *
 * 1. Which structs integrate now: a client's structs in clock order from the document's
 *    state on, each once what it was written against (its origin, right origin and parent)
 *    is in the document or integrates first; the rest would wait in the document's pending
 *    store. Structs already pending in the document take part, as Yjs retries them.
 * 2. Where each integrating item lands: the type it belongs to (named in the update, or the
 *    type of the item it was inserted next to) and, for a map entry, its place among the
 *    entries written under the same key (Yjs' conflict resolution), which says whether it
 *    becomes the key's value or loses to a concurrent one.
 * 3. What the update's delete set (and the document's pending one) deletes.
 *
 * Nothing here reads or writes more of the document than the entries the update touches:
 * the document's struct store is searched by id (`Y.findIndexSS`) and a key's entries are
 * walked only when a conflict needs them. The result answers two questions: where the change
 * landed (the entries `Y.Transaction.changed` would record) and what a touched map holds
 * afterwards.
 */

/** A Yjs shared type of any kind, as a transaction's `changed` keys them. */
export type YType = Y.Transaction['changed'] extends Map<infer K, unknown> ? K : never

/** A type an update writes into: one of the document, a new one from the update, or a root. */
export type Parent = YType | NewType | NamedRoot

/** A top-level type the document does not have yet: the update names it. */
export class NamedRoot {
  readonly name: string
  constructor(name: string) {
    this.name = name
  }
}

/** A type created by an item of the update (a node's Y.Map, its data Y.Map, ...). */
export class NewType {
  readonly struct: NewStruct
  /** The decoded type (empty): what kind of type it is. */
  readonly type: YType
  constructor(struct: NewStruct, type: YType) {
    this.struct = struct
    this.type = type
  }
}

/** A struct of the update (or of the document's pending store) that integrates now. */
export interface NewStruct {
  struct: Y.Item | Y.GC
  /** How many of its first clocks the document already has: only the rest integrates. */
  offset: number
  /** The first clock it adds, and one past its last. */
  clock: number
  end: number
  /** Where it lands; null when it integrates as garbage (its parent or neighbour is collected). */
  parent: Parent | null
  key: string | null
}

/** One change of the update: an item written into (or deleted from) `parent` under `key`. */
export interface ReplayEvent {
  parent: Parent
  /** The map key, or null for list content. */
  key: string | null
}

/** Thrown when Yjs itself would fail on the update (it points at structs that do not exist). */
export class MalformedUpdate extends Error {}

/** Part of one item, as Yjs splits items when something is inserted next to a clock inside them. */
interface Piece {
  item: Y.Item
  live: boolean
  /** Offset of the piece into its item's content, and its length. */
  start: number
  length: number
  client: number
  clock: number
  origin: Y.ID | null
  rightOrigin: Y.ID | null
  /** Undefined: the live item's own neighbour (its last or first piece). */
  left?: Piece | null
  right?: Piece | null
}

/** The entries written under one key of one map type. */
interface KeyList {
  /** The key's current value (the rightmost entry), or null when the key was never written. */
  rightmost: Piece | null
}

/** A decoded update's delete set. */
type DeleteSet = ReturnType<typeof Y.decodeUpdate>['ds']

const idEquals = (a: Y.ID | null, b: Y.ID | null): boolean =>
  a === b || (a !== null && b !== null && a.client === b.client && a.clock === b.clock)

/** The replay of one update against a document. @see the module comment */
export class UpdateReplay {
  /** Every change, in the order Yjs would make them. */
  readonly events: ReplayEvent[] = []
  /** Whether any struct integrates or anything is deleted now. */
  changes = false
  private readonly doc: Y.Doc
  private readonly store: Y.Doc['store']
  private readonly liveState = new Map<number, number>()
  private readonly newByClient = new Map<number, NewStruct[]>()
  private readonly newTypes = new Map<NewStruct, NewType>()
  private readonly newTypesByType = new Map<unknown, NewType>()
  private readonly roots = new Map<string, NamedRoot>()
  private readonly pieces = new Map<Y.Item, Piece[]>()
  private readonly keyLists = new Map<Parent, Map<string, KeyList>>()
  /** Which types get list content (an item without a key). */
  readonly listContent = new Set<Parent>()
  /** Clock ranges deleted by this update, per client (sorted, not merged). */
  private readonly deleted = new Map<number, { clock: number; end: number }[]>()

  /**
   * @param doc the live document (read only)
   * @param update a Yjs update (v1) as a client sends it
   * @throws MalformedUpdate when Yjs would fail on it; Yjs' decoder's own errors when it is
   *   no update at all
   */
  constructor(doc: Y.Doc, update: Uint8Array) {
    this.doc = doc
    this.store = doc.store
    const incoming = Y.decodeUpdate(update)
    const structs: (Y.Item | Y.GC | Y.Skip)[] = [...incoming.structs]
    const pending = this.store.pendingStructs
    if (pending) structs.push(...Y.decodeUpdateV2(pending.update).structs)
    const integrating = this.integrating(structs)
    for (const ns of integrating) this.integrate(ns)
    this.applyDeletes(incoming.ds)
    if (this.store.pendingDs) this.applyDeletes(Y.decodeUpdateV2(this.store.pendingDs).ds)
  }

  /** The document's state for `client` before the update. */
  private stateOf(client: number): number {
    let state = this.liveState.get(client)
    if (state === undefined) {
      state = Y.getState(this.store, client)
      this.liveState.set(client, state)
    }
    return state
  }

  /**
   * The structs that integrate now, in an order where each comes after what it depends on
   * (Yjs integrates a client's structs in clock order, and a struct only once the clocks it
   * points at exist: `Item.getMissing`).
   */
  private integrating(structs: (Y.Item | Y.GC | Y.Skip)[]): NewStruct[] {
    const byClient = new Map<number, (Y.Item | Y.GC)[]>()
    for (const s of structs) {
      if (s instanceof Y.Skip) continue
      let list = byClient.get(s.id.client)
      if (!list) byClient.set(s.id.client, (list = []))
      list.push(s)
    }
    const state = new Map<number, number>()
    const stateOf = (client: number) => state.get(client) ?? this.stateOf(client)
    const missing = (item: Y.Item): boolean => {
      const own = item.id.client
      const { origin, rightOrigin, parent } = item
      if (origin && origin.client !== own && origin.clock >= stateOf(origin.client)) return true
      if (
        rightOrigin &&
        rightOrigin.client !== own &&
        rightOrigin.clock >= stateOf(rightOrigin.client)
      ) {
        return true
      }
      return (
        parent instanceof Y.ID && parent.client !== own && parent.clock >= stateOf(parent.client)
      )
    }
    const queues = [...byClient.entries()].map(([client, list]) => ({
      client,
      list: list.sort((a, b) => a.id.clock - b.id.clock),
      next: 0,
    }))
    const order: NewStruct[] = []
    for (let progress = true; progress;) {
      progress = false
      for (const queue of queues) {
        while (queue.next < queue.list.length) {
          const s = queue.list[queue.next]!
          const at = stateOf(queue.client)
          const end = s.id.clock + s.length
          if (end <= at) {
            queue.next += 1
            continue
          }
          if (s.id.clock > at) break
          if (s instanceof Y.Item && missing(s)) break
          const ns: NewStruct = {
            struct: s,
            offset: at - s.id.clock,
            clock: at,
            end,
            parent: null,
            key: null,
          }
          order.push(ns)
          state.set(queue.client, end)
          let list = this.newByClient.get(queue.client)
          if (!list) this.newByClient.set(queue.client, (list = []))
          list.push(ns)
          queue.next += 1
          progress = true
        }
      }
    }
    return order
  }

  /** The struct holding `id`: one of the document's, or one this update integrates. */
  private find(id: Y.ID): { live: Y.Item | Y.GC } | { fresh: NewStruct } | null {
    if (id.clock < this.stateOf(id.client)) {
      const structs = this.store.clients.get(id.client)!
      return { live: structs[Y.findIndexSS(structs, id.clock)]! }
    }
    const list = this.newByClient.get(id.client)
    if (!list) return null
    let lo = 0
    let hi = list.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const ns = list[mid]!
      if (id.clock < ns.clock) hi = mid - 1
      else if (id.clock >= ns.end) lo = mid + 1
      else return { fresh: ns }
    }
    return null
  }

  private findOrFail(id: Y.ID): { live: Y.Item | Y.GC } | { fresh: NewStruct } {
    const found = this.find(id)
    if (!found)
      throw new MalformedUpdate(`points at ${id.client}:${id.clock}, which does not exist`)
    return found
  }

  private isCollected(found: { live: Y.Item | Y.GC } | { fresh: NewStruct }): boolean {
    if ('live' in found) return found.live instanceof Y.GC
    return found.fresh.struct instanceof Y.GC || found.fresh.parent === null
  }

  /** The root named `name`: the document's, or a new one the update names. */
  root(name: string): Parent {
    const existing = this.doc.share.get(name)
    if (existing) return existing as YType
    let root = this.roots.get(name)
    if (!root) this.roots.set(name, (root = new NamedRoot(name)))
    return root
  }

  /** The type held by the item `found`, or null when it holds none (Yjs then collects the child). */
  private typeHeldBy(found: { live: Y.Item | Y.GC } | { fresh: NewStruct }): Parent | null {
    if ('live' in found) {
      const item = found.live
      return item instanceof Y.Item && item.content instanceof Y.ContentType
        ? (item.content.type as YType)
        : null
    }
    const ns = found.fresh
    if (!(ns.struct instanceof Y.Item) || !(ns.struct.content instanceof Y.ContentType)) return null
    if (ns.parent === null) return null
    let type = this.newTypes.get(ns)
    if (!type) {
      type = new NewType(ns, ns.struct.content.type as YType)
      this.newTypes.set(ns, type)
      this.newTypesByType.set(type.type, type)
    }
    return type
  }

  private parentOf(found: { live: Y.Item | Y.GC } | { fresh: NewStruct }): {
    parent: Parent
    key: string | null
  } {
    if ('live' in found) {
      const item = found.live as Y.Item
      return { parent: item.parent as YType, key: item.parentSub }
    }
    return { parent: found.fresh.parent!, key: found.fresh.key }
  }

  /** `Item.getMissing` (the part that finds the parent) and `Item.integrate`, on the replay. */
  private integrate(ns: NewStruct): void {
    this.changes = true
    const item = ns.struct
    if (!(item instanceof Y.Item)) return
    const left = item.origin ? this.findOrFail(item.origin) : null
    const right = item.rightOrigin ? this.findOrFail(item.rightOrigin) : null
    const declared = item.parent as unknown
    if ((left && this.isCollected(left)) || (right && this.isCollected(right))) return
    if (declared === null) {
      const from = left ?? right
      if (!from) return
      const { parent, key } = this.parentOf(from)
      ns.parent = parent
      ns.key = key
    } else if (typeof declared === 'string') {
      ns.parent = this.root(declared)
      ns.key = item.parentSub
    } else {
      const holder = this.findOrFail(declared as Y.ID)
      ns.parent = this.isCollected(holder) ? null : this.typeHeldBy(holder)
      ns.key = item.parentSub
    }
    if (ns.parent === null) return
    this.events.push({ parent: ns.parent, key: ns.key })
    if (ns.key === null) {
      this.listContent.add(ns.parent)
      return
    }
    this.place(ns, ns.parent, ns.key)
  }

  private keyList(parent: Parent, key: string): KeyList {
    let lists = this.keyLists.get(parent)
    if (!lists) this.keyLists.set(parent, (lists = new Map()))
    let list = lists.get(key)
    if (!list) {
      const live = parent instanceof Y.AbstractType ? parent._map.get(key) : undefined
      list = { rightmost: live ? this.piecesOf(live).at(-1)! : null }
      lists.set(key, list)
    }
    return list
  }

  /** The keys written under `parent` by the update, in the order they were first written. */
  keysWritten(parent: Parent): Iterable<string> {
    return this.keyLists.get(parent)?.keys() ?? []
  }

  private piecesOf(item: Y.Item): Piece[] {
    let list = this.pieces.get(item)
    if (!list) {
      list = [
        {
          item,
          live: true,
          start: 0,
          length: item.length,
          client: item.id.client,
          clock: item.id.clock,
          origin: item.origin,
          rightOrigin: item.rightOrigin,
        },
      ]
      this.pieces.set(item, list)
    }
    return list
  }

  private leftOf(p: Piece): Piece | null {
    if (p.left !== undefined) return p.left
    const list = this.piecesOf(p.item)
    const i = list.indexOf(p)
    if (i > 0) return list[i - 1]!
    return p.live && p.item.left ? this.piecesOf(p.item.left).at(-1)! : null
  }

  private rightOf(p: Piece): Piece | null {
    if (p.right !== undefined) return p.right
    const list = this.piecesOf(p.item)
    const i = list.indexOf(p)
    if (i < list.length - 1) return list[i + 1]!
    return p.live && p.item.right ? this.piecesOf(p.item.right)[0]! : null
  }

  private link(left: Piece | null, right: Piece | null): void {
    if (left) left.right = right
    if (right) right.left = left
  }

  /** The piece holding `id` (Yjs' `getItem`), or null when it is no map entry of this replay. */
  private pieceAt(id: Y.ID): Piece | null {
    const found = this.find(id)
    if (!found) return null
    const item = 'live' in found ? found.live : found.fresh.struct
    if (!(item instanceof Y.Item)) return null
    const list = this.pieces.get(item) ?? ('live' in found ? this.piecesOf(item) : null)
    if (!list) return null
    return list.find((p) => id.clock >= p.clock && id.clock < p.clock + p.length) ?? null
  }

  /** Splits `p` so that a piece starts at `clock` (Yjs' `splitItem`); returns that piece. */
  private split(p: Piece, clock: number, list: KeyList): Piece {
    const diff = clock - p.clock
    const q: Piece = {
      item: p.item,
      live: p.live,
      start: p.start + diff,
      length: p.length - diff,
      client: p.client,
      clock,
      origin: Y.createID(p.client, clock - 1),
      rightOrigin: p.rightOrigin,
    }
    const right = this.rightOf(p)
    const all = this.pieces.get(p.item)!
    all.splice(all.indexOf(p) + 1, 0, q)
    p.length = diff
    this.link(p, q)
    this.link(q, right)
    if (list.rightmost === p) list.rightmost = q
    return q
  }

  /** The piece ending at `id` (Yjs' `getItemCleanEnd`). */
  private cleanEnd(id: Y.ID, list: KeyList): Piece | null {
    const p = this.pieceAt(id)
    if (!p) return null
    if (id.clock < p.clock + p.length - 1) this.split(p, id.clock + 1, list)
    return p
  }

  /** The piece starting at `id` (Yjs' `getItemCleanStart`). */
  private cleanStart(id: Y.ID, list: KeyList): Piece | null {
    const p = this.pieceAt(id)
    if (!p) return null
    return id.clock > p.clock ? this.split(p, id.clock, list) : p
  }

  /** Puts a map entry among the entries of its key, as `Item.integrate` does. */
  private place(ns: NewStruct, parent: Parent, key: string): void {
    const item = ns.struct as Y.Item
    const list = this.keyList(parent, key)
    let origin = item.origin
    let left = origin ? this.cleanEnd(origin, list) : null
    const right = item.rightOrigin ? this.cleanStart(item.rightOrigin, list) : null
    if (ns.offset > 0) {
      left = this.cleanEnd(Y.createID(item.id.client, ns.clock - 1), list)
    }
    if (left) origin = Y.createID(left.client, left.clock + left.length - 1)
    const node: Piece = {
      item,
      live: false,
      start: ns.offset,
      length: ns.end - ns.clock,
      client: item.id.client,
      clock: ns.clock,
      origin,
      rightOrigin: right ? Y.createID(right.client, right.clock) : null,
      left: null,
      right: null,
    }
    this.pieces.set(item, [node])
    if (
      (!left && (!right || this.leftOf(right) !== null)) ||
      (left && this.rightOf(left) !== right)
    ) {
      let chosen = left
      let o = left ? this.rightOf(left) : this.first(list)
      const conflicting = new Set<Piece>()
      const beforeOrigin = new Set<Piece>()
      while (o !== null && o !== right) {
        beforeOrigin.add(o)
        conflicting.add(o)
        if (idEquals(origin, o.origin)) {
          if (o.client < node.client) {
            chosen = o
            conflicting.clear()
          } else if (idEquals(node.rightOrigin, o.rightOrigin)) {
            break
          }
        } else if (o.origin !== null && beforeOrigin.has(this.pieceAt(o.origin)!)) {
          if (!conflicting.has(this.pieceAt(o.origin)!)) {
            chosen = o
            conflicting.clear()
          }
        } else {
          break
        }
        o = this.rightOf(o)
      }
      left = chosen
    }
    const after = left ? this.rightOf(left) : this.first(list)
    this.link(left, node)
    this.link(node, after)
    if (after !== null) {
      // Not the key's value: a concurrent entry stays to its right (Yjs deletes it at once).
      this.markDeleted(node.client, node.clock, node.length)
    } else {
      list.rightmost = node
      if (left) this.markDeleted(left.client, left.clock, left.length)
    }
  }

  /** The leftmost entry of a key. */
  private first(list: KeyList): Piece | null {
    let p = list.rightmost
    if (!p) return null
    for (let l = this.leftOf(p); l; l = this.leftOf(p)) p = l
    return p
  }

  private markDeleted(client: number, clock: number, length: number): void {
    let ranges = this.deleted.get(client)
    if (!ranges) this.deleted.set(client, (ranges = []))
    ranges.push({ clock, end: clock + length })
  }

  private deletedHere(client: number, clock: number): boolean {
    const ranges = this.deleted.get(client)
    return ranges !== undefined && ranges.some((r) => clock >= r.clock && clock < r.end)
  }

  /** Whether the clock `client:clock` is deleted once the update is applied. */
  isDeleted(client: number, clock: number): boolean {
    if (this.deletedHere(client, clock)) return true
    const found = this.find(Y.createID(client, clock))
    if (!found) return false
    if ('live' in found) return found.live.deleted
    const s = found.fresh.struct
    return (
      !(s instanceof Y.Item) || found.fresh.parent === null || s.content instanceof Y.ContentDeleted
    )
  }

  /** `readAndApplyDeleteSet`: each range the document (or this update) holds gets deleted. */
  private applyDeletes(ds: DeleteSet): void {
    for (const [client, ranges] of ds.clients) {
      for (const { clock, len } of ranges) {
        const end = clock + len
        this.deleteLive(client, clock, Math.min(end, this.stateOf(client)))
        for (const ns of this.newByClient.get(client) ?? []) {
          const from = Math.max(clock, ns.clock)
          const to = Math.min(end, ns.end)
          if (from >= to) continue
          this.deleteRange(ns.struct, ns.parent, ns.key, client, from, to)
        }
      }
    }
  }

  private deleteLive(client: number, clock: number, end: number): void {
    if (clock >= end) return
    const structs = this.store.clients.get(client)
    if (!structs) return
    for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
      const s = structs[i]!
      if (s.id.clock >= end) break
      if (!(s instanceof Y.Item) || s.deleted) continue
      const from = Math.max(clock, s.id.clock)
      const to = Math.min(end, s.id.clock + s.length)
      this.deleteRange(s, s.parent as YType, s.parentSub, client, from, to)
    }
  }

  private deleteRange(
    struct: Y.Item | Y.GC,
    parent: Parent | null,
    key: string | null,
    client: number,
    from: number,
    to: number,
  ): void {
    if (!(struct instanceof Y.Item) || parent === null) return
    let any = false
    for (let c = from; c < to; c++) {
      if (!this.isDeleted(client, c)) {
        any = true
        break
      }
    }
    if (!any) return
    this.changes = true
    this.markDeleted(client, from, to - from)
    this.events.push({ parent, key })
  }

  /**
   * The entry that holds `key` of `parent` once the update is applied: its value, or
   * undefined when the key has none (never written, or deleted). A type is given as the
   * document's type or a {@link NewType}.
   */
  valueOf(parent: Parent, key: string): { present: boolean; value: unknown } {
    const list = this.keyLists.get(parent)?.get(key)
    let piece: Piece | null
    if (list) piece = list.rightmost
    else {
      const live = parent instanceof Y.AbstractType ? parent._map.get(key) : undefined
      piece = live ? (this.pieces.get(live)?.at(-1) ?? this.piecesOf(live).at(-1)!) : null
    }
    if (!piece || this.isDeleted(piece.client, piece.clock + piece.length - 1)) {
      return { present: false, value: undefined }
    }
    const content = piece.item.content
    if (content instanceof Y.ContentType) {
      if (piece.live) return { present: true, value: content.type }
      // The decoded (empty) type stands for it: a value of the right kind for the rules.
      const ns = this.find(Y.createID(piece.client, piece.clock))
      const type = ns && 'fresh' in ns ? this.typeHeldBy(ns) : null
      return { present: true, value: type instanceof NewType ? type.type : undefined }
    }
    return { present: true, value: content.getContent()[piece.start + piece.length - 1] }
  }

  /** The new type a value given by {@link valueOf} stands for, if it is one. */
  newTypeOf(value: unknown): NewType | undefined {
    return this.newTypesByType.get(value)
  }

  /** Whether the key of `parent` held an entry before the update. */
  wasPresent(parent: Parent, key: string): boolean {
    const live = parent instanceof Y.AbstractType ? parent._map.get(key) : undefined
    return live !== undefined && !live.deleted
  }

  /**
   * Whether `parent` is still in the document once the update is applied: a root always;
   * another type while the item holding it, and every type above, are not deleted.
   */
  isAlive(parent: Parent): boolean {
    if (parent instanceof NamedRoot) return true
    if (parent instanceof NewType) {
      const ns = parent.struct
      return !this.isDeleted(ns.struct.id.client, ns.clock) && this.isAlive(ns.parent!)
    }
    const item = parent._item
    if (item === null) return true
    return !this.isDeleted(item.id.client, item.id.clock) && this.isAlive(item.parent as YType)
  }
}
