/**
 * Generation helpers. Every generation runs as a durable job (issue 12): the charge, the
 * provider call, retries and refunds live in `features/jobs/` (`submitGeneration`, the
 * worker's `runGenerationJob`).
 */

/** A random seed from 0 to `max` (spec §5: used when the seed is empty). */
export function randomSeed(max: number): number {
  return Math.floor(Math.random() * (max + 1))
}
