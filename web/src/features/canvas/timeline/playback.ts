import { useEffect } from 'react'
import { createStore, type StoreApi } from 'zustand/vanilla'

/**
 * The timeline panel's playhead (issue 24 item 1): where the preview is in the film and how
 * fast it moves (0 paused, 1 playing, negative backward, J/K/L up to 8×). Its own small
 * store, so the clock ticking moves only the playhead and the preview, not the whole panel.
 */
export interface PlaybackState {
  /** ms of the film. */
  timeMs: number
  /** Times real speed; 0: paused. */
  rate: number
}

export type Playback = StoreApi<PlaybackState>

/** A paused playhead at the film's start. */
export function createPlayback(): Playback {
  return createStore<PlaybackState>()(() => ({ timeMs: 0, rate: 0 }))
}

/** Puts the playhead at `timeMs`, inside the film (`durationMs`). */
export function seek(playback: Playback, timeMs: number, durationMs: number): void {
  playback.setState({ timeMs: Math.min(Math.max(0, timeMs), Math.max(0, durationMs)) })
}

/**
 * Runs the clock while the rate is not 0: each animation frame moves the playhead by the
 * time that passed times the rate, and stops it at either end of the film.
 */
export function usePlaybackClock(playback: Playback, durationMs: number): void {
  useEffect(() => {
    let frame = 0
    let last: number | null = null
    const tick = (now: number) => {
      const { rate, timeMs } = playback.getState()
      if (rate !== 0 && last !== null) {
        const next = timeMs + (now - last) * rate
        if (next >= durationMs || next <= 0) {
          playback.setState({ timeMs: Math.min(Math.max(0, next), durationMs), rate: 0 })
        } else playback.setState({ timeMs: next })
      }
      last = now
      frame = requestAnimationFrame(tick)
    }
    frame = requestAnimationFrame(tick)
    return () => cancelAnimationFrame(frame)
  }, [playback, durationMs])
}
