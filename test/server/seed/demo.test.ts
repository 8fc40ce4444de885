import { describe, expect, it } from 'vitest';
import { analysisTypes, queueRunStatuses } from '../../../src/contract/index.js';
import { presets } from '../../../src/contract/default-catalogs.js';
import { demoQueues, demoRunPlans, demoTemplatePresetIds } from '../../../src/server/seed/demo.js';

/** The demo's fixtures (src/server/seed/demo.ts): queues, run plans and templates made from presets. */

describe('demo fixtures', () => {
  it('has 3–4 queues of 2–5 steps ordered 1..n with valid analysis types', () => {
    expect(demoQueues.length).toBeGreaterThanOrEqual(3);
    expect(demoQueues.length).toBeLessThanOrEqual(4);
    for (const queue of demoQueues) {
      expect(queue.name.trim()).not.toBe('');
      expect(queue.steps.length).toBeGreaterThanOrEqual(2);
      expect(queue.steps.length).toBeLessThanOrEqual(5);
      expect(queue.steps.map((step) => step.order)).toEqual(queue.steps.map((_, index) => index + 1));
      for (const step of queue.steps) {
        expect(analysisTypes).toContain(step.analysisType);
        expect(step.lotId).toMatch(/^lot-[a-z0-9-]+-\d{2}$/);
      }
    }
  });

  it('runs reference existing queues and reach several states consistently', () => {
    for (const plan of demoRunPlans) {
      const queue = demoQueues[plan.queueIndex];
      expect(queue, plan.name).toBeDefined();
      expect(Number.isInteger(plan.queueIndex)).toBe(true);
      expect(queueRunStatuses).toContain(plan.targetStatus);
      expect(plan.estimatedHa).toBeGreaterThan(0);
      const stepCount = queue!.steps.length;
      if (plan.targetStatus === 'failed') {
        expect(plan.failAtStep, plan.name).toBeGreaterThanOrEqual(1);
        expect(plan.failAtStep, plan.name).toBeLessThanOrEqual(stepCount);
      } else {
        expect(plan.failAtStep, plan.name).toBeUndefined();
      }
      if (plan.completedSteps !== undefined) {
        expect(['running', 'cancelled']).toContain(plan.targetStatus);
        expect(plan.completedSteps).toBeLessThan(stepCount);
      }
    }
    const reached = new Set(demoRunPlans.map((plan) => plan.targetStatus));
    expect(reached.size).toBeGreaterThanOrEqual(5);
  });

  it('instantiates existing presets under unique names', () => {
    const presetIds = new Set(presets.map((preset) => preset.id));
    for (const { presetId, name } of demoTemplatePresetIds) {
      expect(presetIds.has(presetId), presetId).toBe(true);
      expect(name.length).toBeGreaterThan(0);
      expect(name.length).toBeLessThanOrEqual(200);
    }
    const names = demoTemplatePresetIds.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
  });
});
