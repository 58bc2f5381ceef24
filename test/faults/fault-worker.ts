/** A fault-injection worker process: runs the seeds it is sent and reports each run back. */
import { runFaultHarness } from './fault-harness.js';
import type { WorkerJob, WorkerMessage } from './fault-workers.js';

const send = (message: WorkerMessage) => new Promise<void>((resolve, reject) => process.send?.(message, undefined, undefined, (error) => (error ? reject(error) : resolve())));

process.once('message', (job: WorkerJob) => {
  runFaultHarness({ ...job, onRun: (report) => void send({ type: 'report', report }) })
    .then(async ({ counts }) => {
      await send({ type: 'done', counts });
      process.disconnect();
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
});
