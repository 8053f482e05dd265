import { errorBodySchema } from '@reelgraph/shared'
import { describeRoute, resolver } from 'hono-openapi'
import type { z } from 'zod'

/** A file's bytes in the document: the web's generated types read it as a `Blob`. */
const BINARY = { type: 'string', format: 'binary' } as const

/**
 * A request header or query parameter a handler reads itself (no validator documents it),
 * for the OpenAPI document.
 */
export interface DocumentedParameter {
  in: 'header' | 'query'
  name: string
  description: string
  /** The only values it takes, when it takes only some. */
  enum?: readonly string[]
}

/**
 * Documents a route for the OpenAPI document: summary, success schema (JSON, or a file),
 * error body; and the request parts no validator documents: a raw file body, headers and
 * query parameters the handler reads itself (issue 41 item 4: every request the web's typed
 * client sends is in the document).
 */
export function docs(options: {
  summary: string
  tag: string
  response?: z.ZodType
  status?: 200 | 201
  description?: string
  /** The body of a 202 answer, for calls that may answer before their work is done. */
  accepted?: z.ZodType
  /** The media type of a file the call answers instead of JSON (`application/zip`). */
  file?: string
  /** The media types of a raw request body: a file upload (`audio/*`), read as it streams. */
  requestFile?: readonly string[]
  /** Headers and query parameters the handler reads itself. */
  parameters?: readonly DocumentedParameter[]
}) {
  const jsonOf = (schema: z.ZodType) => ({ 'application/json': { schema: resolver(schema) } })
  return describeRoute({
    summary: options.summary,
    description: options.description,
    tags: [options.tag],
    ...(options.parameters
      ? {
          parameters: options.parameters.map((p) => ({
            in: p.in,
            name: p.name,
            description: p.description,
            required: false,
            schema: { type: 'string', ...(p.enum ? { enum: [...p.enum] } : {}) },
          })),
        }
      : {}),
    ...(options.requestFile
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              options.requestFile.map((type) => [type, { schema: BINARY }]),
            ),
          },
        }
      : {}),
    responses: {
      [options.status ?? 200]: {
        description: 'Success',
        ...(options.response ? { content: jsonOf(options.response) } : {}),
        ...(options.file ? { content: { [options.file]: { schema: BINARY } } } : {}),
      },
      ...(options.accepted
        ? {
            202: {
              description: 'Accepted: still running; follow it at GET /api/jobs/{jobId}',
              content: jsonOf(options.accepted),
            },
          }
        : {}),
      default: { description: 'Error', content: jsonOf(errorBodySchema) },
    },
  })
}
