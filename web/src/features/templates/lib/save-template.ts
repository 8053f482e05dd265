import { placeholdersIn, type TemplateFieldMark } from '@reelgraph/shared'

/**
 * What "Save as template…" sends besides the name (issue 42 item 2): the marks (node fields
 * to turn into variables) and the variables a person will be asked for, read from the
 * project's graph as `GET /api/projects/:id` answers it.
 */

/** The variable "Make the topic a variable" makes: `{{topic}}`. */
export const TOPIC_VARIABLE = 'topic'

/** The node fields this reads: a node's id, type and data. */
export interface TemplateSourceNode {
  id: string
  type: string
  data: Record<string, unknown>
}

/** The Script Generator's topic a mark can turn into `{{topic}}`. */
export interface TopicField {
  nodeId: string
  /** Its current value (what the template's examples keep). */
  topic: string
}

/**
 * The first Script Generator's topic field, or null when the graph has none (or its topic
 * already is a `{{placeholder}}`, so it is a variable as it stands).
 */
export function topicFieldOf(nodes: readonly TemplateSourceNode[]): TopicField | null {
  const node = nodes.find((n) => n.type === 'script-generator')
  if (!node) return null
  const topic = typeof node.data.topic === 'string' ? node.data.topic : ''
  if (placeholdersIn(topic).length > 0) return null
  return { nodeId: node.id, topic }
}

/** The marks to send: the topic's, when asked and the graph has one. */
export function templateMarks(
  topicField: TopicField | null,
  topicAsVariable: boolean,
): TemplateFieldMark[] {
  return topicField && topicAsVariable
    ? [{ nodeId: topicField.nodeId, field: 'topic', name: TOPIC_VARIABLE }]
    : []
}

/**
 * The variables the template will have, in order of first appearance: every `{{name}}` the
 * graph's text fields hold (nodes in order, fields in order), then the marks' names.
 */
export function foundVariables(
  nodes: readonly TemplateSourceNode[],
  marks: readonly TemplateFieldMark[],
): string[] {
  const names: string[] = []
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name)
  }
  for (const node of nodes) {
    for (const value of Object.values(node.data)) {
      if (typeof value === 'string') placeholdersIn(value).forEach(add)
    }
  }
  marks.forEach((mark) => add(mark.name))
  return names
}
