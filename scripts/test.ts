// `npm test`: every unit and integration test (Vitest), then the browser tests (Playwright),
// then a summary that names every failed test with the first line of its error, and one
// closing line totalled over both: `N passed, N failed[, N skipped]`.
// Playwright runs even when Vitest failed, so one run shows everything. Exits 1 when a test
// failed, a runner crashed, or a runner ran no test. Takes no arguments: run a runner
// directly to filter (see e2e/CONTEXT.md).

import { spawn } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'

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
  testResults: {
    name: string
    status: string
    message?: string
    assertionResults: {
      status: string
      ancestorTitles: string[]
      title: string
      failureMessages: string[]
    }[]
  }[]
}

/** The first line of a failure message, short enough for a summary line. */
function firstLine(message: string | undefined): string {
  const text =
    stripVTControlCharacters(message ?? '')
      .trim()
      .split('\n')[0] ?? ''
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/** `file › test: first line of its failure`, for every failed test and failed file. */
function vitestFailures(report: VitestReport | undefined): string[] {
  if (!report) return []
  return report.testResults.flatMap((file) => {
    const path = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name
    const failed = file.assertionResults.filter((t) => t.status === 'failed')
    if (failed.length === 0 && file.status === 'failed') {
      return [`${path}: ${firstLine(file.message)}`]
    }
    return failed.map(
      (t) =>
        `${[path, ...t.ancestorTitles, t.title].join(' › ')}: ${firstLine(t.failureMessages[0])}`,
    )
  })
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

interface PlaywrightSuite {
  suites?: PlaywrightSuite[]
  specs?: {
    title: string
    file: string
    line: number
    tests: { status: string; results: { error?: { message?: string } }[] }[]
  }[]
}

interface PlaywrightReport extends PlaywrightSuite {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  errors: { message?: string }[]
}

/** `file:line › title: first line of its error`, for every unexpected test and run error. */
function playwrightFailures(report: PlaywrightReport | undefined): string[] {
  if (!report) return []
  const walk = (suite: PlaywrightSuite): string[] => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected')
        .map((test) => {
          const error = test.results.findLast((result) => result.error)?.error
          return `${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error?.message)}`
        }),
    ),
    ...(suite.suites ?? []).flatMap(walk),
  ]
  return [...walk(report), ...report.errors.map((error) => firstLine(error.message))]
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
const vitestReport = readJson(VITEST_JSON) as VitestReport | undefined
const vitest = judge('vitest', vitestCounts(vitestReport), vitestCode)

const playwrightCode = await run('playwright', ['test', '-c', 'e2e'])
const playwrightReport = readJson(PLAYWRIGHT_JSON) as PlaywrightReport | undefined
const playwright = judge('playwright', playwrightCounts(playwrightReport), playwrightCode)

const total: Counts = {
  passed: vitest.passed + playwright.passed,
  failed: vitest.failed + playwright.failed,
  skipped: vitest.skipped + playwright.skipped,
}
console.log('\nTest summary')
for (const [name, counts, failures] of [
  ['vitest', vitest, vitestFailures(vitestReport)],
  ['playwright', playwright, playwrightFailures(playwrightReport)],
] as const) {
  console.log(`  ${name}: ${line(counts)}${counts.problem ? ` (${counts.problem})` : ''}`)
  // Named here, near the end, so a CI log that keeps only its tail still says what failed.
  for (const failure of failures) console.log(`    ✘ ${failure}`)
}
console.log(line(total))
process.exitCode = total.failed > 0 ? 1 : 0
