// Storage keys are relative paths like ws_x/rnd_y/file_z.pdf. Segments may not start with a dot:
// that rules out `.` and `..`, and keeps temp files (`.name.tmp`) out of reach of any key.
const SEGMENT = '[A-Za-z0-9_-][A-Za-z0-9._-]*'
const KEY = new RegExp(`^${SEGMENT}(/${SEGMENT})*$`)
export const MAX_FILE_KEY_LENGTH = 1024

export function isFileKey(key: string): boolean {
  return key.length <= MAX_FILE_KEY_LENGTH && KEY.test(key)
}

export function assertFileKey(key: string): void {
  if (!isFileKey(key)) {
    throw new Error(`invalid file key ${JSON.stringify(key.slice(0, 100))}: use relative a/b/c.ext segments`)
  }
}
