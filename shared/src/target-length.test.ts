import { describe, expect, it } from 'vitest'
import { generateScriptInput } from './ai.ts'
import { makeVideoInput } from './make-video.ts'
import { buildScriptRequest } from './node-requests.ts'
import { defaultNodeData, nodeDataProblem, readNodeData } from './nodes/registry.ts'
import {
  formatTargetLength,
  TARGET_SECONDS_DEFAULT,
  TARGET_SECONDS_PRESETS,
  targetSecondsSchema,
} from './target-length.ts'

/** The message a refused value gets, or null when it is taken. */
function refusal(value: unknown): string | null {
  const parsed = targetSecondsSchema.safeParse(value)
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? '')
}

describe('target length (issue 42 item 1)', () => {
  it('takes whole seconds from 10 to 600, the presets among them', () => {
    for (const seconds of [10, 11, ...TARGET_SECONDS_PRESETS, 599, 600]) {
      expect(refusal(seconds)).toBeNull()
    }
    expect(TARGET_SECONDS_PRESETS).toEqual([15, 30, 60, 90])
  })

  it('refuses other values with a message that says what to give', () => {
    expect(refusal(9)).toBe(
      'The length must be at least 10 seconds: a shorter video has no room for its words.',
    )
    expect(refusal(0)).toContain('at least 10 seconds')
    expect(refusal(-30)).toContain('at least 10 seconds')
    expect(refusal(601)).toBe('The length can be at most 600 seconds (10 minutes).')
    const whole = 'The length must be a whole number of seconds from 10 to 600.'
    expect(refusal(30.5)).toBe(whole)
    expect(refusal('30')).toBe(whole)
    expect(refusal(Number.NaN)).toBe(whole)
    expect(refusal(null)).toBe(whole)
  })

  it('is optional in the script request and in Make video, and refused there when bad', () => {
    const script = { topic: 'Tides', style: 'Casual', tone: 'Enthusiastic', format: 'Story' }
    expect(generateScriptInput.parse(script).targetSeconds).toBeUndefined()
    expect(generateScriptInput.parse({ ...script, targetSeconds: 30 }).targetSeconds).toBe(30)
    const badScript = generateScriptInput.safeParse({ ...script, targetSeconds: 5000 })
    expect(badScript.error?.issues[0]).toMatchObject({
      path: ['targetSeconds'],
      message: 'The length can be at most 600 seconds (10 minutes).',
    })

    const make = { projectId: 1, nodeId: 'script-generator-1', sceneCount: 3, preset: '9:16' }
    expect(makeVideoInput.parse(make).targetSeconds).toBeUndefined()
    expect(makeVideoInput.parse({ ...make, targetSeconds: 30 }).targetSeconds).toBe(30)
    const badMake = makeVideoInput.safeParse({ ...make, targetSeconds: 4 })
    expect(badMake.error?.issues[0]).toMatchObject({
      path: ['targetSeconds'],
      message: expect.stringContaining('at least 10 seconds'),
    })
  })

  it('is a field of the Script Generator: 60 s on a new node and on one saved before it', () => {
    expect(TARGET_SECONDS_DEFAULT).toBe(60)
    expect(defaultNodeData('script-generator').targetSeconds).toBe(60)
    expect(readNodeData('script-generator', { topic: 'Old node' }).targetSeconds).toBe(60)
    // Read as the canvas always read numbers: numeric text, rounded and clamped into range.
    expect(readNodeData('script-generator', { targetSeconds: '30' }).targetSeconds).toBe(30)
    expect(readNodeData('script-generator', { targetSeconds: 44.6 }).targetSeconds).toBe(45)
    expect(readNodeData('script-generator', { targetSeconds: 5000 }).targetSeconds).toBe(600)
    expect(readNodeData('script-generator', { targetSeconds: 3 }).targetSeconds).toBe(10)
    // The sync server and REST refuse what cannot be read as a number.
    expect(nodeDataProblem('script-generator', 'targetSeconds', 'half a minute')).not.toBeNull()
    expect(nodeDataProblem('script-generator', 'targetSeconds', 30)).toBeNull()
  })

  it('goes with the node’s Generate Script request', () => {
    const data = readNodeData('script-generator', { topic: ' Tides ', targetSeconds: 90 })
    expect(buildScriptRequest(data)).toMatchObject({ topic: 'Tides', targetSeconds: 90 })
    expect(generateScriptInput.safeParse(buildScriptRequest(data)).success).toBe(true)
  })

  it('reads as seconds and minutes', () => {
    expect(formatTargetLength(15)).toBe('15 s')
    expect(formatTargetLength(60)).toBe('1 min')
    expect(formatTargetLength(90)).toBe('1 min 30 s')
    expect(formatTargetLength(600)).toBe('10 min')
  })
})
