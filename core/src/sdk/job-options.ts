import type { JobOptions } from './queue-contracts.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What every backend refuses before storing a job: the same answer from each. */
export function checkJobOptions(options: JobOptions): void {
  if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1) {
    throw new Error(`maxAttempts must be a whole number of at least 1, not ${options.maxAttempts}`)
  }
  if (!(options.timeoutSeconds > 0)) {
    throw new Error(`timeoutSeconds must be above 0, not ${options.timeoutSeconds}`)
  }
  const { group, id } = options
  if (group) {
    if (typeof group.key !== 'string' || group.key === '') throw new Error('a job group needs a key')
    if (group.limit !== undefined && (!Number.isInteger(group.limit) || group.limit < 1)) {
      throw new Error(`a group limit must be a whole number of at least 1, not ${group.limit}`)
    }
  }
  if (id !== undefined && !UUID.test(id)) throw new Error(`a job id must be a UUID, not ${id}`)
}
