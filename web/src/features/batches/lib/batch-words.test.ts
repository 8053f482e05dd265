import type { BatchRow, BatchRowStatus } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  BATCH_POLL_INTERVAL_MS,
  batchPollInterval,
  batchSummary,
  canCancel,
  canRetryFailed,
  formatCredits,
  formatEstimate,
  rowPercent,
} from './batch-words'

function row(status: BatchRowStatus, progress = 0): BatchRow {
  return {
    row: 1,
    values: { topic: 'Tides' },
    status,
    progress,
    stage: '',
    projectId: null,
    projectName: null,
    jobId: null,
    credits: 0,
    mp4Url: null,
    srtUrl: null,
    thumbnailUrl: null,
    error: null,
  }
}

describe('batchPollInterval', () => {
  it('polls a running batch', () => {
    expect(batchPollInterval({ status: 'running', rows: [row('running')] })).toBe(
      BATCH_POLL_INTERVAL_MS,
    )
  })
  it('does not poll a quoted batch, a finished one, or none', () => {
    expect(batchPollInterval({ status: 'quoted', rows: [row('quoted')] })).toBe(false)
    expect(batchPollInterval({ status: 'done', rows: [row('succeeded'), row('failed')] })).toBe(
      false,
    )
    expect(batchPollInterval({ status: 'cancelled', rows: [row('cancelled')] })).toBe(false)
    expect(batchPollInterval(undefined)).toBe(false)
  })
  it('keeps polling a finished batch while a row is still on its way (a retry)', () => {
    expect(batchPollInterval({ status: 'done', rows: [row('succeeded'), row('queued')] })).toBe(
      BATCH_POLL_INTERVAL_MS,
    )
  })
})

describe('rowPercent', () => {
  it('rounds progress to a percentage within 0..100', () => {
    expect(rowPercent(row('running', 0.424))).toBe(42)
    expect(rowPercent(row('running', 1.7))).toBe(100)
    expect(rowPercent(row('running', -1))).toBe(0)
  })
  it('is 100 for a succeeded row whatever its progress says', () => {
    expect(rowPercent(row('succeeded', 0.9))).toBe(100)
  })
})

describe('batchSummary', () => {
  it('counts the rows by state in the order a row goes through them', () => {
    expect(
      batchSummary({ rows: [row('running'), row('succeeded'), row('running'), row('failed')] }),
    ).toBe('4 rows: 1 done, 1 failed, 2 running.')
    expect(batchSummary({ rows: [row('quoted')] })).toBe('1 row: 1 not started.')
  })
})

describe('formatEstimate and formatCredits', () => {
  it('says a time the way a person would', () => {
    expect(formatEstimate(40)).toBe('under a minute')
    expect(formatEstimate(80)).toBe('about 1 minute')
    expect(formatEstimate(150)).toBe('about 3 minutes')
    expect(formatEstimate(3600)).toBe('about 1 h')
    expect(formatEstimate(3900)).toBe('about 1 h 5 min')
  })
  it('says credits with their number', () => {
    expect(formatCredits(1)).toBe('1 credit')
    expect(formatCredits(1500)).toBe('1,500 credits')
  })
})

describe('canRetryFailed and canCancel', () => {
  it('retries only a started batch with a failed row', () => {
    expect(canRetryFailed({ status: 'done', rows: [row('failed'), row('succeeded')] })).toBe(true)
    expect(canRetryFailed({ status: 'done', rows: [row('succeeded')] })).toBe(false)
    expect(canRetryFailed({ status: 'quoted', rows: [row('quoted')] })).toBe(false)
  })
  it('cancels a quoted or running batch only', () => {
    expect(canCancel({ status: 'running' })).toBe(true)
    expect(canCancel({ status: 'quoted' })).toBe(true)
    expect(canCancel({ status: 'done' })).toBe(false)
    expect(canCancel({ status: 'cancelled' })).toBe(false)
  })
})
