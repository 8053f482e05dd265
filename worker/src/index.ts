export { loadWorkerEnv, type WorkerEnv } from './env.ts'
export { type RunningWorker, startWorker } from './worker.ts'
