/**
 * What a node is made of at the lowest level, below the graph's schemas (`graph.ts`) and the
 * node types (`nodes/`), which both build on it: where a node connects, and the values its
 * data holds (ARCHITECTURE decision 2). Imports nothing, so the node registry and the graph
 * schemas never import each other back.
 */

/** Where a node can be connected (spec §3). */
export const CONNECTION_POINTS = ['input', 'output', 'both'] as const
export type ConnectionPoints = (typeof CONNECTION_POINTS)[number]

/** A node's data value: a string, a finite number or a boolean (ARCHITECTURE decision 2). */
export type NodeDataValue = string | number | boolean

/** A node's data: flat values by key (spec §3 Node data). */
export type NodeData = Record<string, NodeDataValue>
