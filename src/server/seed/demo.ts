import type { AnalysisType, QueueRunStatus } from '../../contract/index.js';

/**
 * Demo fixtures for `reportctl serve --demo` and `admin seed`: pure data, which the store
 * turns into rows. Lots are named after farms the way agronomists name them: farm, then
 * lot number.
 */

export interface DemoQueueStep {
  /** 1..n, in the order the steps run. */
  order: number;
  lotId: string;
  analysisType: AnalysisType;
}

export interface DemoQueue {
  name: string;
  steps: DemoQueueStep[];
}

export interface DemoRunPlan {
  /** Index into `demoQueues`. */
  queueIndex: number;
  name: string;
  estimatedHa: number;
  /** The status to drive the run to through the ordinary life cycle. */
  targetStatus: QueueRunStatus;
  /** For `failed`: the step (1-based `order`) that fails; later steps end `skipped`. */
  failAtStep?: number;
  /**
   * For `running` and `cancelled`: how many steps complete before the run stops there
   * (a running run has the next step running). Absent means none.
   */
  completedSteps?: number;
}

export const demoQueues: DemoQueue[] = [
  {
    name: 'La Esperanza — maize emergence check',
    steps: [
      { order: 1, lotId: 'lot-la-esperanza-07', analysisType: 'counting' },
      { order: 2, lotId: 'lot-la-esperanza-08', analysisType: 'counting' },
      { order: 3, lotId: 'lot-la-esperanza-07', analysisType: 'replanting' },
      { order: 4, lotId: 'lot-la-esperanza-08', analysisType: 'replanting' },
    ],
  },
  {
    name: 'San José — replanting round',
    steps: [
      { order: 1, lotId: 'lot-san-jose-12', analysisType: 'replanting' },
      { order: 2, lotId: 'lot-san-jose-14', analysisType: 'replanting' },
      { order: 3, lotId: 'lot-san-jose-12', analysisType: 'counting' },
    ],
  },
  {
    name: 'El Porvenir — tractor path audit',
    steps: [
      { order: 1, lotId: 'lot-el-porvenir-03', analysisType: 'path' },
      { order: 2, lotId: 'lot-el-porvenir-05', analysisType: 'path' },
    ],
  },
  {
    name: 'Santa Rosa — full stand assessment',
    steps: [
      { order: 1, lotId: 'lot-santa-rosa-21', analysisType: 'counting' },
      { order: 2, lotId: 'lot-santa-rosa-21', analysisType: 'replanting' },
      { order: 3, lotId: 'lot-santa-rosa-21', analysisType: 'path' },
      { order: 4, lotId: 'lot-santa-rosa-22', analysisType: 'counting' },
      { order: 5, lotId: 'lot-santa-rosa-22', analysisType: 'replanting' },
    ],
  },
];

/** One run per interesting state, so a demo user sees every status in `queue-runs list`. */
export const demoRunPlans: DemoRunPlan[] = [
  { queueIndex: 0, name: 'Emergence check — week 2 after sowing', estimatedHa: 118.5, targetStatus: 'completed' },
  {
    queueIndex: 0,
    name: 'Emergence check — week 3 after sowing',
    estimatedHa: 118.5,
    targetStatus: 'running',
    completedSteps: 2,
  },
  { queueIndex: 1, name: 'Replanting round 1', estimatedHa: 86.2, targetStatus: 'failed', failAtStep: 2 },
  { queueIndex: 2, name: 'Path audit — after sowing', estimatedHa: 64.8, targetStatus: 'claimed' },
  {
    queueIndex: 2,
    name: 'Path audit — first spraying pass',
    estimatedHa: 64.8,
    targetStatus: 'cancelled',
    completedSteps: 1,
  },
  { queueIndex: 3, name: 'Santa Rosa — stand assessment 2025', estimatedHa: 152.3, targetStatus: 'completed' },
  // Last, so it is the newest: the README tour watches the first run listed as it goes.
  { queueIndex: 1, name: 'Replanting round 2', estimatedHa: 86.2, targetStatus: 'pending' },
];

/** Presets the demo account starts with as templates, under the names they get there. */
export const demoTemplatePresetIds: Array<{ presetId: string; name: string }> = [
  { presetId: 'preset-counting-summary', name: 'La Esperanza — plant count' },
  { presetId: 'preset-counting-vigor-ndvi', name: 'La Esperanza — NDVI vigor' },
  { presetId: 'preset-replanting-gaps', name: 'San José — gaps to replant' },
  { presetId: 'preset-replanting-vigor-savi-custom', name: 'San José — replanting zones (SAVI)' },
  { presetId: 'preset-path-coverage', name: 'El Porvenir — path coverage' },
];
