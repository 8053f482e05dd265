import { describe, expect, it } from 'vitest'
import { foundVariables, templateMarks, topicFieldOf } from './save-template'

const script = (topic: string) => ({
  id: 'script-generator-1-a',
  type: 'script-generator',
  data: { topic, style: 'Professional' },
})

describe('topicFieldOf and templateMarks', () => {
  it('marks the Script Generator’s topic as {{topic}} when asked', () => {
    const field = topicFieldOf([{ id: 'text-1-b', type: 'text', data: {} }, script('Tides')])
    expect(field).toEqual({ nodeId: 'script-generator-1-a', topic: 'Tides' })
    expect(templateMarks(field, true)).toEqual([
      { nodeId: 'script-generator-1-a', field: 'topic', name: 'topic' },
    ])
    expect(templateMarks(field, false)).toEqual([])
  })
  it('finds no topic to mark without a Script Generator, or when it already holds a variable', () => {
    expect(topicFieldOf([{ id: 'text-1-b', type: 'text', data: { text: 'x' } }])).toBeNull()
    expect(topicFieldOf([script('All about {{animal}}')])).toBeNull()
  })
})

describe('foundVariables', () => {
  it('lists the placeholders of every text field once, in order, then the marks', () => {
    const nodes = [
      script('{{product_name}} in {{city}}'),
      { id: 'scene-1-c', type: 'scene', data: { narration: 'Meet {{product_name}}.', n: 3 } },
    ]
    expect(foundVariables(nodes, [])).toEqual(['product_name', 'city'])
    expect(
      foundVariables(nodes, [{ nodeId: 'scene-1-c', field: 'visuals', name: 'image' }]),
    ).toEqual(['product_name', 'city', 'image'])
  })
})
