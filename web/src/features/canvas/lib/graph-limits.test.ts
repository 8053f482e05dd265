import { MAX_CONNECTIONS, MAX_NODES } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { limitRefusal } from './graph-limits'

describe('limitRefusal (issue 11: the canvas checks the limits before writing)', () => {
  it('lets a project fill up to MAX_NODES nodes and refuses one more', () => {
    const none = { nodes: 0, connections: 0 }
    expect(limitRefusal({ nodes: MAX_NODES - 1, connections: 0 }, { ...none, nodes: 1 })).toBe(null)
    expect(limitRefusal({ nodes: MAX_NODES, connections: 0 }, { ...none, nodes: 1 })).toBe(
      'too-many-nodes',
    )
    // A paste or a generation is all or nothing: three that do not all fit are refused.
    expect(limitRefusal({ nodes: MAX_NODES - 2, connections: 0 }, { ...none, nodes: 3 })).toBe(
      'too-many-nodes',
    )
  })

  it('refuses connections past MAX_CONNECTIONS', () => {
    expect(
      limitRefusal({ nodes: 10, connections: MAX_CONNECTIONS }, { nodes: 0, connections: 1 }),
    ).toBe('too-many-connections')
    expect(
      limitRefusal({ nodes: 10, connections: MAX_CONNECTIONS - 1 }, { nodes: 0, connections: 1 }),
    ).toBe(null)
  })

  it('never refuses an edit that adds nothing, even over a limit', () => {
    expect(
      limitRefusal(
        { nodes: MAX_NODES + 5, connections: MAX_CONNECTIONS + 5 },
        {
          nodes: 0,
          connections: 0,
        },
      ),
    ).toBe(null)
  })
})
