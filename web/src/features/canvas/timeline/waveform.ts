/**
 * The narration waveform's strip (issue 24 item 1), pure: the peak level of each of `buckets`
 * equal slices of the samples (0..1), so the track draws one bar per slice.
 */
export function peaks(samples: Float32Array, buckets: number): number[] {
  const count = Math.max(1, Math.floor(buckets))
  const out = new Array<number>(count).fill(0)
  if (samples.length === 0) return out
  const size = samples.length / count
  for (let b = 0; b < count; b++) {
    const from = Math.floor(b * size)
    const to = Math.max(from + 1, Math.floor((b + 1) * size))
    let peak = 0
    for (let i = from; i < to && i < samples.length; i++) {
      const v = Math.abs(samples[i]!)
      if (v > peak) peak = v
    }
    out[b] = Math.min(1, peak)
  }
  return out
}
