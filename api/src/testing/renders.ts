import { costlyTestsRunOn, type TestDatabaseKind } from '@reelgraph/db/testing'
import { it } from 'vitest'

/**
 * `it` for a test whose cost is rendering media: registered on one database kind only
 * (`costlyTestsRunOn`: Postgres when `TEST_DATABASE_URL` is set, else PGlite), and not at
 * all on the others, so it neither runs twice nor counts as skipped.
 */
export function itRendersOn(
  kind: TestDatabaseKind,
): (name: string, test: () => Promise<void>, timeoutMs?: number) => void {
  return (name, test, timeoutMs) => {
    if (costlyTestsRunOn(kind)) it(name, test, timeoutMs)
  }
}
