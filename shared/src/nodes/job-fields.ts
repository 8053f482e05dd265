import { z } from 'zod'
import { JOB_DATA_KEYS, JOB_KINDS, JOB_STATUSES } from '../jobs.ts'
import {
  nonEmptyTextValue,
  type NodeFieldsData,
  optionalField,
  optionalNumber,
  optionalText,
} from './node-field.ts'
import { fieldsSchema, readFields, type StoredNodeData } from './node-kind.ts'

/**
 * The job state on a generator node (issue 12), as fields of every generator type's data:
 * written by the server only ({@link JOB_DATA_KEYS}), absent on a node that never ran a
 * job; a value of the wrong kind reads as absent.
 */
export const JOB_FIELDS = {
  [JOB_DATA_KEYS.id]: optionalField(nonEmptyTextValue, { type: 'text' }, 'must be a job id'),
  // The kinds the canvas words; another kind the server runs reads as none.
  [JOB_DATA_KEYS.kind]: optionalField(
    z.enum(JOB_KINDS),
    { type: 'choice', values: JOB_KINDS },
    `must be one of ${JOB_KINDS.join(', ')}`,
  ),
  [JOB_DATA_KEYS.status]: optionalField(
    z.enum(JOB_STATUSES),
    { type: 'choice', values: JOB_STATUSES },
    `must be one of ${JOB_STATUSES.join(', ')}`,
  ),
  [JOB_DATA_KEYS.progress]: optionalNumber(),
  [JOB_DATA_KEYS.stage]: optionalText(),
  [JOB_DATA_KEYS.message]: optionalText(),
  [JOB_DATA_KEYS.refunded]: optionalNumber(),
  [JOB_DATA_KEYS.updatedAt]: optionalField(nonEmptyTextValue, { type: 'text' }, 'must be a time'),
} as const

/** A generator node's job fields as read: only those stored with a value of the right kind. */
export type JobFields = NodeFieldsData<typeof JOB_FIELDS>

/** The stored keys of the job fields. */
export const JOB_FIELD_KEYS: readonly string[] = Object.keys(JOB_FIELDS)

const jobFieldsSchema = fieldsSchema(JOB_FIELDS)

/**
 * The job fields of a node's data (stored, or flow data), as every generator type reads
 * them: keys whose value is missing or of the wrong kind are left out, so a node without a
 * job has none.
 */
export function readJobFields(data: StoredNodeData): JobFields {
  return readFields(jobFieldsSchema, data)
}
