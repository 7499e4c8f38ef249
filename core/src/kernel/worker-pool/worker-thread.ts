// Entry of every WorkerPool thread: runs one task at a time, each by the default export of its
// task module (loaded on first use and kept), and answers with the result or the error as data.
// The pool terminates this thread when a task runs past its time or memory budget.
import { parentPort } from 'node:worker_threads'
import {
  isTransferring,
  type TaskFailure,
  type TaskMessage,
  type TaskReply,
  THREAD_READY,
  TRANSFER,
} from './worker-pool-protocol.ts'

type TaskFunction = (input: unknown) => unknown

const modules = new Map<string, Promise<TaskFunction>>()

const port = parentPort
if (!port) throw new Error('worker-thread.ts runs as a worker thread')
port.on('message', (task: TaskMessage) => void run(task))
port.postMessage(THREAD_READY)

async function run(task: TaskMessage): Promise<void> {
  let reply: TaskReply
  let transfer: ArrayBuffer[] = []
  try {
    const result = await (await taskFunction(task.module))(task.input)
    if (isTransferring(result)) {
      transfer = result[TRANSFER]
      reply = { id: task.id, value: result.value }
    } else reply = { id: task.id, value: result }
  } catch (err) {
    reply = { id: task.id, failure: failureOf(err) }
  }
  port!.postMessage(reply, transfer)
}

function taskFunction(url: string): Promise<TaskFunction> {
  let loaded = modules.get(url)
  if (!loaded) {
    loaded = import(url).then((module: { default?: unknown }) => {
      if (typeof module.default !== 'function') throw new Error(`${url} has no default export to run`)
      return module.default as TaskFunction
    })
    modules.set(url, loaded)
  }
  return loaded
}

function failureOf(err: unknown): TaskFailure {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) }
  const problem = err as Error & { code?: unknown; detail?: unknown; extras?: unknown }
  // a ProblemError (duck-typed: the task module may see another copy of the class)
  if (err.name === 'ProblemError' && typeof problem.code === 'string') {
    return {
      name: err.name,
      message: err.message,
      problem: {
        code: problem.code,
        detail: typeof problem.detail === 'string' ? problem.detail : undefined,
        extras: (problem.extras ?? {}) as Record<string, unknown>,
      },
    }
  }
  return { name: err.name, message: err.message }
}
