/**
 * Model catalog ids (issue 22 item 1), apart from `catalog.ts` so that the call schemas can
 * check an id without importing the catalog's node-type dependencies (no import cycle).
 */

/** A catalog id: `<provider>:<the provider's own model id>`. */
export const MODEL_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}:\S{1,200}$/

/** `fal:fal-ai/flux/dev` -> `fal`. */
export function providerOfModelId(modelId: string): string {
  return modelId.slice(0, Math.max(0, modelId.indexOf(':')))
}
