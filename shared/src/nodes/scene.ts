import { textField } from './node-field.ts'
import { defineNodeKind, type ExistingNode } from './node-kind.ts'

/**
 * Scene (spec §3: sceneNumber, a string; narration; visuals). A new scene is numbered one
 * past the highest scene number on the canvas and labelled "Scene N".
 */
export const sceneNode = defineNodeKind({
  type: 'scene',
  title: 'Scene',
  connectionPoints: 'both',
  footprint: { width: 300, height: 380 },
  fields: {
    sceneNumber: textField('1'),
    narration: textField(''),
    visuals: textField(''),
  },
  created: (existing) => {
    const next = nextSceneNumber(existing)
    return { label: `Scene ${next}`, data: { sceneNumber: String(next) } }
  },
})

/** One more than the highest whole-number sceneNumber among `nodes` (1 when there is none). */
export function nextSceneNumber(nodes: readonly ExistingNode[]): number {
  let highest = 0
  for (const node of nodes) {
    if (node.type !== sceneNode.type) continue
    const n = Number(sceneNode.read(node.data).sceneNumber)
    if (Number.isInteger(n) && n > highest) highest = n
  }
  return highest + 1
}
