import { placeholdersIn } from '@reelgraph/shared'

/**
 * Where a refusal of `POST /api/projects/from-template` goes on the form (issue 42 item 2):
 * beside the field it names. A variable's message goes under its input (named by the field
 * path `values.<name>`, or by the `{{name}}` the message holds), the name's under the name,
 * anything else above the actions.
 */
export interface TemplateFormErrors {
  /** Messages by variable name. */
  values: Record<string, string>
  /** The project name's message. */
  name?: string
  /** What names no field. */
  form?: string
}

/**
 * Sorts a refusal's message and per-field messages (`fields`, keyed by dotted path as the
 * API's `VALIDATION_FAILED` gives them) onto the form's fields; `variables` are the names
 * the form has.
 */
export function templateFormErrors(
  message: string,
  fields: Readonly<Record<string, string>> | undefined,
  variables: readonly string[],
): TemplateFormErrors {
  const errors: TemplateFormErrors = { values: {} }
  const unplaced: string[] = []
  const place = (path: string, text: string) => {
    const value = /^values\.([a-z][a-z0-9_]*)$/.exec(path)
    if (value && variables.includes(value[1]!)) errors.values[value[1]!] = text
    else if (path === 'name') errors.name = text
    else if (!placeByPlaceholder(text)) unplaced.push(text)
  }
  const placeByPlaceholder = (text: string) => {
    const named = placeholdersIn(text).find((n) => variables.includes(n))
    if (!named) return false
    errors.values[named] ??= text
    return true
  }
  const entries = Object.entries(fields ?? {})
  if (entries.length > 0) {
    for (const [path, text] of entries) place(path, text)
  } else if (!placeByPlaceholder(message)) {
    unplaced.push(message)
  }
  if (unplaced.length > 0) errors.form = unplaced.join(' ')
  return errors
}
