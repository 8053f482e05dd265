import { describe, expect, it } from 'vitest'
import { FRAME_MS, nextShuttleRate, timelineKeyAction } from './timeline-keys'

const press = (
  key: string,
  mods: Partial<Record<'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey', boolean>> = {},
) => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
})

describe('timelineKeyAction', () => {
  it('maps the editor keys', () => {
    expect(timelineKeyAction(press(' '))).toEqual({ type: 'toggle-play' })
    expect(timelineKeyAction(press('ArrowRight'))).toEqual({ type: 'step', ms: FRAME_MS })
    expect(FRAME_MS).toBeCloseTo(33.333, 3)
    expect(timelineKeyAction(press('ArrowLeft', { shiftKey: true }))).toEqual({
      type: 'step',
      ms: -1000,
    })
    expect(timelineKeyAction(press('ArrowLeft', { altKey: true }))).toEqual({
      type: 'move-cut',
      by: -1,
    })
    expect(timelineKeyAction(press('ArrowRight', { altKey: true }))).toEqual({
      type: 'move-cut',
      by: 1,
    })
    expect(timelineKeyAction(press('J'))).toEqual({ type: 'shuttle', key: 'j' })
    expect(timelineKeyAction(press('k'))).toEqual({ type: 'shuttle', key: 'k' })
    expect(timelineKeyAction(press('l'))).toEqual({ type: 'shuttle', key: 'l' })
    expect(timelineKeyAction(press('Delete'))).toEqual({ type: 'remove-cut' })
    expect(timelineKeyAction(press('Backspace'))).toEqual({ type: 'remove-cut' })
    expect(timelineKeyAction(press('z', { ctrlKey: true }))).toEqual({ type: 'undo' })
    expect(timelineKeyAction(press('z', { metaKey: true }))).toEqual({ type: 'undo' })
    expect(timelineKeyAction(press('Z', { ctrlKey: true, shiftKey: true }))).toEqual({
      type: 'redo',
    })
    expect(timelineKeyAction(press('y', { ctrlKey: true }))).toEqual({ type: 'redo' })
  })

  it('leaves other keys alone', () => {
    expect(timelineKeyAction(press('a'))).toBeNull()
    expect(timelineKeyAction(press('y', { metaKey: true }))).toBeNull()
    expect(timelineKeyAction(press('c', { ctrlKey: true }))).toBeNull()
    expect(timelineKeyAction(press(' ', { altKey: true }))).toBeNull()
    expect(timelineKeyAction(press('Enter'))).toBeNull()
  })
})

describe('nextShuttleRate', () => {
  it('doubles in one direction, turns, and stops on K', () => {
    expect(nextShuttleRate(0, 'l')).toBe(1)
    expect(nextShuttleRate(1, 'l')).toBe(2)
    expect(nextShuttleRate(4, 'l')).toBe(8)
    expect(nextShuttleRate(8, 'l')).toBe(8)
    expect(nextShuttleRate(2, 'j')).toBe(-1)
    expect(nextShuttleRate(-1, 'j')).toBe(-2)
    expect(nextShuttleRate(-2, 'k')).toBe(0)
  })
})
