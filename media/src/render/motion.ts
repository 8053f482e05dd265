import { createHash } from 'node:crypto'
import { KEN_BURNS_MAX_ZOOM, KEN_BURNS_MIN_ZOOM_CHANGE } from './config.ts'

/**
 * A Ken Burns move over one scene: the zoom and the pan point at the scene's first and
 * last frame, interpolated linearly in between (constant speed).
 */
export interface KenBurnsMotion {
  /** Zoom at the first frame: 1 shows the whole fitted still, 1.12 shows 1/1.12 of it. */
  zoomFrom: number
  /** Zoom at the last frame. */
  zoomTo: number
  /**
   * Pan at the first frame: where the visible window sits in the room the zoom leaves,
   * 0 = left/top edge, 1 = right/bottom edge, 0.5 = centred.
   */
  panFrom: { x: number; y: number }
  /** Pan at the last frame. */
  panTo: { x: number; y: number }
}

/** Rounds to 4 decimals so that motions survive a JSON round trip (cache keys) unchanged. */
const round4 = (n: number) => Math.round(n * 10_000) / 10_000

/**
 * A deterministic Ken Burns move from a seed (pure): the same seed always gives the same
 * move. Half the seeds push in, half pull out; the zoom changes by at least
 * `KEN_BURNS_MIN_ZOOM_CHANGE` and stays within 1..`KEN_BURNS_MAX_ZOOM`; the pan drifts
 * between points away from the edges.
 * @see issue 13 item 3
 */
export function kenBurnsMotion(seed: string | number): KenBurnsMotion {
  const digest = createHash('sha256').update(`ken-burns:${seed}`).digest()
  // Six independent numbers in [0, 1) from the digest.
  const r = Array.from({ length: 6 }, (_, i) => digest.readUInt32BE(i * 4) / 2 ** 32)
  const change =
    KEN_BURNS_MIN_ZOOM_CHANGE + r[0]! * (KEN_BURNS_MAX_ZOOM - 1 - KEN_BURNS_MIN_ZOOM_CHANGE)
  const low = 1 + r[1]! * (KEN_BURNS_MAX_ZOOM - 1 - change)
  const high = low + change
  const pushIn = r[2]! < 0.5
  const point = (a: number) => round4(0.2 + a * 0.6)
  return {
    zoomFrom: round4(pushIn ? low : high),
    zoomTo: round4(pushIn ? high : low),
    panFrom: { x: point(r[3]!), y: point(r[4]!) },
    panTo: { x: point(1 - r[3]!), y: point(r[5]!) },
  }
}
