import { getNodesMap, moveNodes, updateNodeData } from '@reelgraph/shared'
import * as Y from 'yjs'
import { type TestClient, waitFor } from '../../sync-server/src/testing/sync-test-kit.ts'

/** One write every 50 ms: the canvas's drag rate (20 Hz). */
export const WRITE_INTERVAL_MS = 50
/** Writes before measuring starts: connections and JITs settle. */
export const WARMUP_WRITES = 20

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The edit-to-visible measurement both sync benchmarks share: `writer` moves the first
 * node of the document and stamps it with a sequence number and its send time, every
 * WRITE_INTERVAL_MS for `durationMs` after WARMUP_WRITES; each reader records, per write it
 * sees, the milliseconds since it was sent. A reader that sees two writes in one update
 * records only the later (coalesced, not lost).
 * @returns the measured writes and, per reader group, its latencies in ms.
 */
export async function measureWriteLatency(
  writer: TestClient,
  readerGroups: TestClient[][],
  durationMs: number,
): Promise<{ writes: number; latencies: number[][] }> {
  const nodeId = [...getNodesMap(writer.doc).keys()][0] ?? ''
  const seen = new Map<TestClient, number>()
  const latencies = readerGroups.map((group) => {
    const into: number[] = []
    for (const reader of group) {
      seen.set(reader, -1)
      reader.doc.on('update', () => {
        const data = getNodesMap(reader.doc).get(nodeId)?.get('data')
        if (!(data instanceof Y.Map)) return
        const seq = data.get('benchSeq')
        const sentAt = data.get('benchSentAt')
        if (typeof seq !== 'number' || typeof sentAt !== 'number' || seq === seen.get(reader))
          return
        seen.set(reader, seq)
        if (seq >= WARMUP_WRITES) into.push(performance.now() - sentAt)
      })
    }
    return into
  })
  const writes = WARMUP_WRITES + durationMs / WRITE_INTERVAL_MS
  const start = performance.now()
  for (let seq = 0; seq < writes; seq++) {
    const wait = start + seq * WRITE_INTERVAL_MS - performance.now()
    if (wait > 0) await sleep(wait)
    writer.doc.transact(() => {
      moveNodes(writer.doc, new Map([[nodeId, { x: seq, y: seq }]]))
      updateNodeData(writer.doc, nodeId, { benchSeq: seq, benchSentAt: performance.now() })
    })
  }
  await waitFor(
    () => [...seen.values()].every((s) => s === writes - 1),
    'every reader has the last write',
    10_000,
  ).catch(() => null)
  return { writes: writes - WARMUP_WRITES, latencies }
}
