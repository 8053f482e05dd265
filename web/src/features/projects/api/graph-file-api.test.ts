import { GRAPH_FILE_MESSAGES } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { readGraphFile } from './graph-file-api'

describe('readGraphFile (issue 42 item 2)', () => {
  it('reads a chosen file’s JSON as it is, for the server to judge', async () => {
    const value = { format: 'reelgraph.graph', version: 9, nodes: 'anything' }
    await expect(readGraphFile(new Blob([JSON.stringify(value, null, 2)]))).resolves.toEqual(value)
  })

  it('refuses a file that is not JSON in the graph file’s words', async () => {
    await expect(readGraphFile(new Blob(['{"format": "reelgraph.graph",']))).rejects.toThrow(
      GRAPH_FILE_MESSAGES.notJson,
    )
  })
})
