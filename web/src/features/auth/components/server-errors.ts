import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { ApiError } from '@/lib/api-client'

/**
 * Puts the API's per-field messages (`VALIDATION_FAILED` `fields`, or the one field an error
 * code is about) under the matching form fields. Returns true when at least one field got
 * a message.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldNames: readonly Path<T>[],
  byCode: Partial<Record<string, Path<T>>> = {},
): boolean {
  if (!(error instanceof ApiError)) return false
  let applied = false
  const codeField = error.code ? byCode[error.code] : undefined
  if (codeField) {
    setError(codeField, { type: 'server', message: error.serverMessage }, { shouldFocus: true })
    applied = true
  }
  for (const [field, message] of Object.entries(error.fields ?? {})) {
    const name = fieldNames.find((candidate) => candidate === field)
    if (!name) continue
    setError(name, { type: 'server', message }, { shouldFocus: !applied })
    applied = true
  }
  return applied
}
