import { optionalText } from './node-field.ts'

/**
 * The stored key of a generator's result input hash (issue 42 item 4): shared's
 * `generatorInputHash` of the inputs its newest result was made from, written by the server
 * with the result.
 */
export const RESULT_INPUT_HASH_KEY = 'resultInputHash'

/**
 * The field every generator type but the Video node (whose takes carry their `inputHash`)
 * adds to its data (issue 42 item 4): absent until the node's first result written since
 * issue 42; the canvas's "Stale" label and `POST /api/projects/:id/run` compare it with the
 * hash of the node's inputs now.
 */
export const RESULT_HASH_FIELDS = {
  /** The input hash (shared `generatorInputHash`) its newest result was made from. */
  [RESULT_INPUT_HASH_KEY]: optionalText(),
} as const
