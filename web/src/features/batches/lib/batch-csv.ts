import { safeFileName, type TemplateVariable } from '@reelgraph/shared'

/**
 * The table a batch reads (issue 42 item 3): a CSV whose header names the template's
 * variables, one row of values under it per video. The server parses and judges it; these
 * helpers only show what it needs and build an example a person can fill in.
 */

/** A CSV field as RFC 4180 writes it: quoted (inner quotes doubled) when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

/** The header a template's table needs: its variables' names, comma-separated ("topic,voice_over"). */
export function batchCsvHeader(variables: readonly Pick<TemplateVariable, 'name'>[]): string {
  return variables.map((v) => csvField(v.name)).join(',')
}

/**
 * An example table for a template (its "Download an example CSV"): the header and one row of
 * the variables' examples (a variable without one gets its label in angle brackets, so the
 * row is never blank), lines ended by CRLF as RFC 4180 has it. Empty for no variables.
 */
export function batchExampleCsv(
  variables: readonly Pick<TemplateVariable, 'name' | 'label' | 'example'>[],
): string {
  if (variables.length === 0) return ''
  const row = variables.map((v) => csvField(v.example.trim() || `<${v.label || v.name}>`))
  return `${batchCsvHeader(variables)}\r\n${row.join(',')}\r\n`
}

/** A `data:` URL of `csv` for a download link (UTF-8, percent-encoded). */
export function csvDataUrl(csv: string): string {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`
}

/** The example's file name: "Vertical short example.csv" (kept safe for every system). */
export function batchExampleFileName(templateName: string): string {
  return `${safeFileName(`${templateName} example`, 'batch example')}.csv`
}
