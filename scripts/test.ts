// `npm test`: every unit and integration test (Vitest), then the browser tests (Playwright),
// then one closing line totalled over both: `N passed, N failed[, N skipped]`.
// Playwright runs even when Vitest failed, so one run shows everything. Exits 1 when a test
// failed, a runner crashed, or a runner ran no test. Takes no arguments: run a runner
// directly to filter (see e2e/CONTEXT.md).

import { spawn } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const VITEST_JSON = join(root, 'test-results', 'vitest.json')
/** Written by the json reporter set in e2e/playwright.config.ts. */
const PLAYWRIGHT_JSON = join(root, 'e2e', 'test-results', 'results.json')

interface Counts {
  passed: number
  failed: number
  skipped: number
  /** Why the runner counts as failed beyond its failed tests, if it does. */
  problem?: string
}

/** Runs a runner's JS entry on this same Node (24), with the terminal as its output. */
function run(bin: string, args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', '.bin', bin), ...args], {
      cwd: root,
      stdio: 'inherit',
    })
    child.on('error', (error) => {
      console.error(`${bin} could not start: ${error.message}`)
      resolve(null)
    })
    child.on('exit', (code, signal) => {
      if (signal) console.error(`${bin} was killed by ${signal}`)
      resolve(code)
    })
  })
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

interface VitestReport {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numTodoTests: number
  testResults: { status: string; assertionResults: { status: string }[] }[]
}

function vitestCounts(report: VitestReport | undefined): Counts | undefined {
  if (!report) return undefined
  // A file that failed outside any test (import error, failing hook) has no failed test.
  const failedFiles = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed'),
  ).length
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + failedFiles,
    skipped: report.numPendingTests + report.numTodoTests,
  }
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  errors: unknown[]
}

function playwrightCounts(report: PlaywrightReport | undefined): Counts | undefined {
  if (!report) return undefined
  const { expected, unexpected, flaky, skipped } = report.stats
  // Errors outside tests (the web server did not start, a file did not load) fail the run.
  return { passed: expected + flaky, failed: unexpected + report.errors.length, skipped }
}

/** The counts, or a problem that counts as one failure when the report and exit code disagree. */
function judge(name: string, counts: Counts | undefined, code: number | null): Counts {
  if (!counts) return { passed: 0, failed: 1, skipped: 0, problem: 'crashed (no report)' }
  if (counts.passed + counts.failed === 0) {
    return { ...counts, failed: 1, problem: 'ran no test' }
  }
  if (code !== 0 && counts.failed === 0) {
    return {
      ...counts,
      failed: 1,
      problem: `exited with ${code ?? 'a signal'} (see ${name}'s output)`,
    }
  }
  return counts
}

function line({ passed, failed, skipped }: Counts): string {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`
}

rmSync(VITEST_JSON, { force: true })
rmSync(PLAYWRIGHT_JSON, { force: true })

const vitestCode = await run('vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${VITEST_JSON}`,
])
const vitest = judge(
  'vitest',
  vitestCounts(readJson(VITEST_JSON) as VitestReport | undefined),
  vitestCode,
)

const playwrightCode = await run('playwright', ['test', '-c', 'e2e'])
const playwright = judge(
  'playwright',
  playwrightCounts(readJson(PLAYWRIGHT_JSON) as PlaywrightReport | undefined),
  playwrightCode,
)

const total: Counts = {
  passed: vitest.passed + playwright.passed,
  failed: vitest.failed + playwright.failed,
  skipped: vitest.skipped + playwright.skipped,
}
console.log('\nTest summary')
for (const [name, counts] of [
  ['vitest', vitest],
  ['playwright', playwright],
] as const) {
  console.log(`  ${name}: ${line(counts)}${counts.problem ? ` (${counts.problem})` : ''}`)
}
console.log(line(total))
process.exitCode = total.failed > 0 ? 1 : 0
