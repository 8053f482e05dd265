import {
  BATCH_MAX_ROWS,
  BATCH_MESSAGES,
  BATCH_PROBLEMS_LISTED,
  templateValueProblems,
  type TemplateValues,
  type TemplateVariable,
} from '@reelgraph/shared'
import { CsvError, parse } from 'csv-parse'
import { AppError } from '../../lib/app-error.ts'

/**
 * A batch's table (issue 42 item 3): rows of values read from a CSV body or a JSON array, and
 * checked against the template's variables before anything is stored, so a bad row is refused
 * in the quote with its number, never half-run.
 */

/**
 * Checks every row against `variables` (shared's `templateValueProblems`: a missing or empty
 * value, text over its limit, an image value that is no picture, a name the template lacks).
 * @throws AppError 400 `Row 3: Give a value for {{topic}}.` listing up to
 *   `BATCH_PROBLEMS_LISTED` problems in the message (the rest counted) and every one in
 *   `fields`, keyed `rows.<index>.<variable>` (index 0 is row 1).
 * @see issue 42 item 3
 */
export function checkBatchRows(
  variables: readonly TemplateVariable[],
  rows: readonly TemplateValues[],
): void {
  if (rows.length === 0) throw new AppError('BAD_REQUEST', BATCH_MESSAGES.noRows)
  if (rows.length > BATCH_MAX_ROWS) {
    throw new AppError('BAD_REQUEST', BATCH_MESSAGES.tooManyRows(rows.length))
  }
  const problems: { field: string; message: string }[] = []
  rows.forEach((values, index) => {
    for (const problem of templateValueProblems(variables, values)) {
      problems.push({
        field: `rows.${index}.${problem.variable}`,
        message: BATCH_MESSAGES.row(index + 1, problem.message),
      })
    }
  })
  if (problems.length === 0) return
  const listed = problems.slice(0, BATCH_PROBLEMS_LISTED).map((p) => p.message)
  const rest = problems.length - listed.length
  const message =
    rest > 0 ? `${listed.join(' ')} (${BATCH_MESSAGES.moreProblems(rest)})` : listed.join(' ')
  throw new AppError('BAD_REQUEST', message, {
    fields: Object.fromEntries(problems.map((p) => [p.field, p.message])),
  })
}

/**
 * Reads a CSV table (RFC 4180 as csv-parse reads it: quoted fields, `""` inside quotes, CRLF or
 * LF, a UTF-8 byte order mark skipped, blank lines skipped, each field trimmed) whose header
 * names the template's variables, one row of values per record. Records are counted as they
 * are parsed and only the first {@link BATCH_MAX_ROWS} kept, so a table too long is refused
 * with its length without holding it whole.
 * @param body the request's bytes (at most `BATCH_CSV_MAX_BYTES`, the caller's limit)
 * @returns the rows as value objects, in table order
 * @throws AppError 400 in `BATCH_MESSAGES`' words: not CSV (with csv-parse's reason and line),
 *   a header naming a column twice, a variable without a column (`missingColumn`), a column
 *   that is no variable (`unknownColumn`), a row with more or fewer fields than the header
 *   (naming the row), no rows, more than `BATCH_MAX_ROWS` rows (`tooManyRows`).
 * @see issue 42 item 3
 */
export async function readBatchCsv(
  body: Uint8Array,
  variables: readonly TemplateVariable[],
): Promise<TemplateValues[]> {
  const parser = parse({ bom: true, skip_empty_lines: true, trim: true, relax_column_count: true })
  parser.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength))
  let header: string[] | undefined
  const rows: TemplateValues[] = []
  let count = 0
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = checkHeader(record, variables)
        continue
      }
      count++
      if (count > BATCH_MAX_ROWS) continue // counted, not kept
      if (record.length !== header.length) {
        throw new AppError(
          'BAD_REQUEST',
          BATCH_MESSAGES.row(
            count,
            `it has ${record.length} ${record.length === 1 ? 'value' : 'values'} and the header names ${header.length} columns.`,
          ),
        )
      }
      rows.push(Object.fromEntries(header.map((name, i) => [name, record[i]!])))
    }
  } catch (err) {
    if (err instanceof CsvError) {
      throw new AppError('BAD_REQUEST', BATCH_MESSAGES.notCsv(err.message))
    }
    throw err
  }
  if (!header || count === 0) throw new AppError('BAD_REQUEST', BATCH_MESSAGES.noRows)
  if (count > BATCH_MAX_ROWS) throw new AppError('BAD_REQUEST', BATCH_MESSAGES.tooManyRows(count))
  return rows
}

/** The header's column names, checked against the variables. */
function checkHeader(record: readonly string[], variables: readonly TemplateVariable[]): string[] {
  const names = record.map((name) => name.trim())
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name)) {
      throw new AppError(
        'BAD_REQUEST',
        BATCH_MESSAGES.notCsv(`the column "${name}" appears twice.`),
      )
    }
    seen.add(name)
  }
  for (const variable of variables) {
    if (!seen.has(variable.name)) {
      throw new AppError('BAD_REQUEST', BATCH_MESSAGES.missingColumn(variable.name))
    }
  }
  const known = new Set(variables.map((v) => v.name))
  const unknown = names.find((name) => !known.has(name))
  if (unknown !== undefined)
    throw new AppError('BAD_REQUEST', BATCH_MESSAGES.unknownColumn(unknown))
  return names
}
