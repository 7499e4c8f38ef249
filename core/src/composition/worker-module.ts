import type { KernelCore } from '../kernel/kernel.ts'
import { RENDER_JOB } from '../renders/render-jobs.ts'

/**
 * The worker role's render side: the render job handler and the sweeper (features start their own
 * worker loops in start(), seeing the `worker` role). Returns the stop, which the composition runs
 * after HTTP has drained (kernel/shutdown.ts): loops first, so nothing enqueues while the queue
 * settles its running jobs.
 */
export async function startWorkerModule(core: KernelCore): Promise<(deadlineMs: number) => Promise<void>> {
  const { container, config, queue, plugins, roles } = core
  const { renderRunner, renderSweeper } = container.cradle
  await queue.work(RENDER_JOB, { concurrency: config.workerConcurrency }, renderRunner.handle)
  renderSweeper.start()
  return async (deadlineMs) => {
    await renderSweeper.stop()
    await plugins.stop(roles, deadlineMs, 'features')
    await queue.stop(deadlineMs)
  }
}
