import type { Store } from './store/index.js';

/**
 * Moves every unfinished run one step of its life cycle per tick, so a polling client can
 * watch runs progress in real time (`serve --simulate`).
 */
export function startSimulator(store: Store, stepMs: number, onError: (error: unknown) => void): () => void {
  const timer = setInterval(() => {
    try {
      for (const runId of store.queueRuns.activeRunIds()) store.queueRuns.advance(runId);
    } catch (error) {
      onError(error);
    }
  }, stepMs);
  timer.unref();
  return () => clearInterval(timer);
}
