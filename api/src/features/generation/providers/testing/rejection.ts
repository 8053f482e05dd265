import { expect } from 'vitest'
import { ProviderError } from '../types.ts'

/** The ProviderError a provider call rejects with; fails the test on anything else. */
export async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ProviderError)
  return error as ProviderError
}
