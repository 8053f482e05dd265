import { generateImageOutput, generateScriptOutput } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { readGenerationAnswer } from './ai-api'

describe('readGenerationAnswer (issue 12)', () => {
  it('reads a result as the call’s result', () => {
    expect(
      readGenerationAnswer(generateScriptOutput, { script: 'Bees dance.' }, 'the script'),
    ).toEqual({
      kind: 'result',
      result: { script: 'Bees dance.' },
    })
  })

  it('reads a 202 as the job to follow, not as a failure', () => {
    expect(
      readGenerationAnswer(generateImageOutput, { jobId: 'job-1', status: 'queued' }, 'the image'),
    ).toEqual({ kind: 'accepted', job: { jobId: 'job-1', status: 'queued' } })
  })

  it('refuses anything else', () => {
    expect(() => readGenerationAnswer(generateImageOutput, { imageUrl: 3 }, 'the image')).toThrow(
      'The server gave an unexpected answer to the image.',
    )
  })
})
