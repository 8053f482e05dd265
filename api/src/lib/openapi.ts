import { errorBodySchema } from '@reelgraph/shared'
import { describeRoute, resolver } from 'hono-openapi'
import type { z } from 'zod'

/** Documents a JSON route for the OpenAPI document: summary, success schema, error body. */
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
}) {
  const jsonOf = (schema: z.ZodType) => ({ 'application/json': { schema: resolver(schema) } })
  return describeRoute({
    summary: options.summary,
    description: options.description,
    tags: [options.tag],
    responses: {
      [options.status ?? 200]: {
        description: 'Success',
        ...(options.response ? { content: jsonOf(options.response) } : {}),
        ...(options.file
          ? { content: { [options.file]: { schema: { type: 'string', format: 'binary' } } } }
          : {}),
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
