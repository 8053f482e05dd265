import {
  describeJobProgress,
  JOB_DATA_KEYS,
  JOB_STATUSES,
  type JobProgress,
} from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  isJobActive,
  jobActionOf,
  jobFailureAlert,
  type JobState,
  jobStateOf,
  jobStatusText,
  progressValueText,
  readJobFields,
  refundText,
  withoutJobFields,
} from './job-state'

const job = (over: Partial<JobState> = {}): JobState => ({
  id: 'job-1',
  kind: null,
  status: 'running',
  progress: null,
  stage: '',
  message: '',
  refunded: 0,
  updatedAt: null,
  ...over,
})

describe('readJobFields (the job keys of a node, issue 12)', () => {
  it('reads every key of the contract', () => {
    const data = {
      topic: 'Bees',
      [JOB_DATA_KEYS.id]: 'job-1',
      [JOB_DATA_KEYS.status]: 'running',
      [JOB_DATA_KEYS.progress]: 40,
      [JOB_DATA_KEYS.stage]: 'Writing the script',
      [JOB_DATA_KEYS.message]: '',
      [JOB_DATA_KEYS.refunded]: 0,
      [JOB_DATA_KEYS.updatedAt]: '2026-01-01T00:00:00.000Z',
    }
    expect(readJobFields(data)).toEqual({
      jobId: 'job-1',
      jobStatus: 'running',
      jobProgress: 40,
      jobStage: 'Writing the script',
      jobMessage: '',
      jobRefunded: 0,
      jobUpdatedAt: '2026-01-01T00:00:00.000Z',
    })
  })

  it('has no keys for a node without a job, and leaves out values of the wrong kind', () => {
    expect(readJobFields({ topic: 'Bees' })).toEqual({})
    expect(
      readJobFields({
        jobId: 7,
        jobStatus: 'exploded',
        jobProgress: 'lots',
        jobStage: true,
        jobRefunded: Number.NaN,
        jobUpdatedAt: '',
      }),
    ).toEqual({})
  })

  it('takes numbers written as text', () => {
    expect(readJobFields({ jobProgress: '55', jobRefunded: '2' })).toEqual({
      jobProgress: 55,
      jobRefunded: 2,
    })
  })
})

describe('withoutJobFields (a pasted copy starts without its original’s job)', () => {
  it('drops exactly the job keys', () => {
    const data = {
      prompt: 'A bee',
      width: 640,
      jobId: 'job-1',
      jobStatus: 'running',
      jobProgress: 3,
    }
    expect(withoutJobFields(data)).toEqual({ prompt: 'A bee', width: 640 })
    expect(data.jobId).toBe('job-1')
  })
})

describe('jobStateOf', () => {
  it('is null without an id or a status', () => {
    expect(jobStateOf({})).toBeNull()
    expect(jobStateOf({ jobId: 'job-1' })).toBeNull()
    expect(jobStateOf({ jobStatus: 'queued' })).toBeNull()
  })

  it('normalizes: progress clamped to 0-100 and whole, refund never negative, text trimmed', () => {
    expect(
      jobStateOf({
        jobId: 'job-1',
        jobStatus: 'running',
        jobProgress: 140.4,
        jobStage: '  Rendering  ',
        jobRefunded: -3,
      }),
    ).toEqual(job({ progress: 100, stage: 'Rendering', refunded: 0 }))
    expect(jobStateOf({ jobId: 'j', jobStatus: 'running', jobProgress: -2 })?.progress).toBe(0)
    expect(jobStateOf({ jobId: 'j', jobStatus: 'running', jobProgress: 33.6 })?.progress).toBe(34)
    expect(jobStateOf({ jobId: 'j', jobStatus: 'running' })?.progress).toBeNull()
  })
})

describe('isJobActive (busy Generate, Cancel offered)', () => {
  it('is true only while queued or running', () => {
    const active = JOB_STATUSES.filter((status) => isJobActive(job({ status })))
    expect(active).toEqual(['queued', 'running'])
    expect(isJobActive(null)).toBe(false)
  })
})

describe('jobStatusText', () => {
  it('says Queued, the stage while running, Done, Cancelled', () => {
    expect(jobStatusText('image', job({ status: 'queued' }))).toBe('Queued')
    expect(jobStatusText('script', job({ stage: 'Writing the script' }))).toBe('Writing the script')
    expect(jobStatusText('script', job())).toBe('Generating...')
    expect(jobStatusText('image', job({ status: 'succeeded' }))).toBe('Done')
    const refunded = job({
      status: 'cancelled',
      message: 'Cancelled. Your 2 credits were refunded.',
    })
    expect(jobStatusText('image', { ...refunded, refunded: 2 })).toBe('Cancelled')
  })

  it('says why a cancel gave nothing back, in the server’s words', () => {
    const paid =
      'Cancelled. The AI provider had already delivered this result, so no credits were refunded.'
    expect(jobStatusText('image', job({ status: 'cancelled', message: paid }))).toBe(paid)
    expect(jobStatusText('image', job({ status: 'cancelled' }))).toBe('Cancelled')
  })

  it('words a failure as the spec §8 alert of its action', () => {
    const failed = job({ status: 'failed', message: 'The image provider did not answer.' })
    expect(jobStatusText('image', failed)).toBe(
      'Failed to generate image: The image provider did not answer.',
    )
    expect(jobStatusText('scenes', job({ status: 'failed' }))).toBe(
      'Failed to generate scenes: Unknown error',
    )
  })

  it('toasts a followed job’s failure as the alert of a call that failed with it', () => {
    const failed = job({ status: 'failed', message: 'Refused. Your 2 credits were refunded.' })
    expect(jobFailureAlert('image', failed)).toBe(
      'Failed to generate image: Refused. Your 2 credits were refunded.',
    )
    expect(jobFailureAlert('scenes', job({ status: 'failed' }))).toBe(
      'Failed to generate scenes: Unknown error',
    )
  })

  it('leaves the refund to the refund line', () => {
    const failed = job({
      status: 'failed',
      message:
        'The Stable Diffusion server refused the request. Your 2 credits were refunded. Please try again.',
      refunded: 2,
    })
    expect(jobStatusText('image', failed)).toBe(
      'Failed to generate image: The Stable Diffusion server refused the request. Please try again.',
    )
    expect(
      jobStatusText('script', job({ status: 'failed', message: 'Your 1 credit was refunded.' })),
    ).toBe('Failed to generate script: Unknown error')
  })
})

describe('refundText and progressValueText', () => {
  it('says how many credits came back, in the singular for one', () => {
    expect(refundText(0)).toBeNull()
    expect(refundText(1)).toBe('Refunded 1 credit')
    expect(refundText(2)).toBe('Refunded 2 credits')
  })

  it('speaks the amount, or that it is in progress when unknown', () => {
    expect(progressValueText(40)).toBe('40%')
    expect(progressValueText(null)).toBe('In progress')
  })
})

describe('jobActionOf (issue 13 item 6)', () => {
  it('reads a make-video or render job on a node as a video, anything else as the node’s own action', () => {
    expect(jobActionOf(job({ kind: 'make-video' }), 'script')).toBe('video')
    expect(jobActionOf(job({ kind: 'script' }), 'script')).toBe('script')
    expect(jobActionOf(job(), 'script')).toBe('script')
    expect(jobActionOf(null, 'scenes')).toBe('scenes')
    expect(readJobFields({ [JOB_DATA_KEYS.kind]: 'make-video' })).toEqual({ jobKind: 'make-video' })
    expect(readJobFields({ [JOB_DATA_KEYS.kind]: 'evil' })).toEqual({})
  })
})

describe('a clip job (issue 22 item 3)', () => {
  // What the server writes onto the Video Generator, from the provider's reports.
  const fields = (progress: JobProgress, percent?: number) => ({
    jobId: 'job-7',
    jobKind: 'clip' as const,
    jobStatus: 'running' as const,
    jobStage: describeJobProgress(progress),
    ...(percent === undefined ? {} : { jobProgress: percent }),
  })

  it('reads queued at the provider with its position, then running with its progress', () => {
    const queued = jobStateOf(fields({ stage: 'clip', done: 0, total: 100, queuePosition: 3 }))
    expect(queued).toMatchObject({ kind: 'clip', status: 'running', progress: null })
    expect(jobStatusText(jobActionOf(queued, 'clip'), queued!)).toBe(
      'Generating the clip (queued at the provider, position 3)',
    )
    expect(isJobActive(queued)).toBe(true)
    const running = jobStateOf(fields({ stage: 'clip', done: 40, total: 100 }, 40))
    expect(running).toMatchObject({ progress: 40 })
    expect(jobStatusText('clip', running!)).toBe('Generating the clip')
  })

  it('words a failed clip, its refund apart, and a clip job on any node as a clip', () => {
    const failed = job({
      kind: 'clip',
      status: 'failed',
      message: 'The model refused this prompt for safety reasons. Your 10 credits were refunded.',
      refunded: 10,
    })
    const action = jobActionOf(failed, 'image')
    expect(action).toBe('clip')
    expect(jobStatusText(action, failed)).toBe(
      'Failed to generate clip: The model refused this prompt for safety reasons.',
    )
    expect(jobFailureAlert(action, failed)).toMatch(/^Failed to generate clip: The model refused/)
    expect(refundText(failed.refunded)).toBe('Refunded 10 credits')
  })
})
