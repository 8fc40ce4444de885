import type { Store } from './store/index.js';

/**
 * Moves every unfinished run one step of its life cycle per tick, so a polling client can
 * watch runs progress in real time (`serve --simulate`). `whenIdle` runs on a tick that
 * finds nothing in flight (the demo enqueues a new run there, so one is always moving).
 */
export function startSimulator(store: Store, stepMs: number, onError: (error: unknown) => void, whenIdle?: () => void): () => void {
  const timer = setInterval(() => {
    try {
      const active = store.queueRuns.activeRunIds();
      if (active.length === 0) whenIdle?.();
      for (const runId of active) store.queueRuns.advance(runId);
    } catch (error) {
      onError(error);
    }
  }, stepMs);
  timer.unref();
  return () => clearInterval(timer);
}
