import type { KernelCore } from '../kernel/kernel.ts'
import { RENDER_JOB } from '../renders/render-jobs.ts'

/**
 * The worker role: the render job handler, the sweeper and each feature's background loops.
 * Returns the stop, which the composition runs after HTTP has drained (kernel/shutdown.ts).
 */
export async function startWorkerModule(core: KernelCore): Promise<(deadlineMs: number) => Promise<void>> {
  const { container, config, queue, features } = core
  const { renderRunner, renderSweeper } = container.cradle
  await queue.work(RENDER_JOB, { concurrency: config.workerConcurrency }, renderRunner.handle)
  renderSweeper.start()
  const featureStops: (() => Promise<void>)[] = []
  for (const feature of features) {
    if (feature.startWorker) featureStops.push(await feature.startWorker(container.cradle))
  }
  return async (deadlineMs) => {
    await renderSweeper.stop()
    for (const stop of featureStops) await stop()
    await queue.stop(deadlineMs)
  }
}
