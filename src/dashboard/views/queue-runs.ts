import { queueRunStatuses } from '../../contract/vocabulary.js';
import type { Paginated, QueueRun, QueueRunStep } from '../../contract/index.js';
import { append, button, el, labelled, message, pager, select, shortTime } from '../dom.js';
import { pollDelayMs } from '../pacing.js';
import type { Service } from '../api-client.js';
import type { View } from './view.js';

/** The page polls at most this often; fewer reads are left, the slower it goes. */
const POLL_INTERVAL_MS = 2000;
const PAGE_SIZE = 20;

/** Queue runs with each step's progress, refreshed by polling (paced by the rate limit). */
export function queueRunsView(service: Service): View {
  const status = select('status', queueRunStatuses, 'any');
  // Until the first answer: said in words, so an empty list is never mistaken for no runs.
  const list = el('div', { class: 'runs', 'aria-live': 'polite', 'aria-busy': 'true' }, message('Loading queue runs…'));
  const refreshed = el('p', { class: 'meta', id: 'runs-refreshed' });
  const element = el(
    'section',
    { class: 'view' },
    el('h2', {}, 'Queue runs'),
    el('div', { class: 'filters' }, labelled('Status', status)),
    refreshed,
    list,
  );
  /** Runs whose timeline is open; kept across refreshes. */
  const open = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let pageNumber = 1;

  let shown: Paginated<QueueRun> | undefined;

  /** Draws a page of runs; a redraw keeps the keyboard's place (focus goes back to the same control). */
  const draw = (page: Paginated<QueueRun>) => {
    shown = page;
    const focused = (document.activeElement as HTMLElement | null)?.dataset.focusKey;
    const toggle = (id: string) => {
      if (open.has(id)) open.delete(id);
      else open.add(id);
      if (shown) draw(shown);
    };
    list.replaceChildren(
      ...(page.data.length === 0 ? [message('No queue runs.')] : page.data.map((run) => runCard(run, open.has(run.id), toggle))),
      pager(page, 'queue run', (to) => {
        pageNumber = to;
        void poll();
      }),
    );
    if (focused) list.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
    list.setAttribute('aria-busy', 'false');
  };

  /** Counts polls, so that only the latest one draws and schedules the next. */
  let generation = 0;
  const poll = async () => {
    const mine = ++generation;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    try {
      const page = await service.get<Paginated<QueueRun>>('/api/v2/queue-runs', { page: pageNumber, limit: PAGE_SIZE, status: status.value });
      if (stopped || mine !== generation) return;
      draw(page);
      const delay = pollDelayMs(POLL_INTERVAL_MS, service.reads);
      refreshed.textContent = `Updated ${new Date().toLocaleTimeString()}; next refresh in ${Math.round(delay / 100) / 10} s (${service.reads?.remaining ?? '?'} reads left in the window).`;
      timer = setTimeout(() => void poll(), delay);
    } catch (error) {
      if (stopped || mine !== generation) return;
      list.replaceChildren(message(`Could not list queue runs: ${(error as Error).message}`, 'error'));
      timer = setTimeout(() => void poll(), pollDelayMs(POLL_INTERVAL_MS * 2, service.reads));
    }
  };
  status.addEventListener('change', () => {
    pageNumber = 1;
    void poll();
  });
  void poll();
  return {
    title: 'Queue runs',
    element,
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

function runCard(run: QueueRun, isOpen: boolean, toggle: (id: string) => void): HTMLElement {
  const steps = [...run.steps].sort((a, b) => a.order - b.order);
  const done = steps.filter((step) => step.status === 'completed' || step.status === 'skipped' || step.status === 'failed').length;
  const timelineId = `timeline-${run.id}`;
  const toggleButton = button(isOpen ? 'Hide timeline' : 'Show timeline', () => toggle(run.id), {
    'aria-expanded': String(isOpen),
    'aria-controls': timelineId,
    'data-focus-key': `toggle-${run.id}`,
  });
  const card = el(
    'article',
    { class: `run status-${run.status}`, 'data-run-id': run.id },
    el('h3', {}, run.name),
    el('p', { class: 'meta' }, el('span', { class: `badge status-${run.status}` }, run.status), ` · ${run.id} · ${run.estimatedHa} ha · created ${shortTime(run.createdAt)}`),
    el(
      'div',
      { class: 'progress' },
      el('progress', { max: Math.max(1, steps.length), value: done, 'aria-label': `${run.name}: steps done` }),
      el('span', { class: 'steps-done' }, `${done}/${steps.length} steps done`),
    ),
    el('ol', { class: 'steps', 'aria-label': 'Steps' }, ...steps.map((step) => el('li', { class: `step status-${step.status}`, title: `${step.lotId} ${step.analysisType}: ${step.status}` }, `${step.order}. ${step.status}`))),
    toggleButton,
  );
  if (isOpen) append(card, timeline(run, steps, timelineId));
  return card;
}

function timeline(run: QueueRun, steps: QueueRunStep[], id: string): HTMLElement {
  return el(
    'ol',
    { class: 'timeline', id, 'aria-label': `Timeline of ${run.name}` },
    el('li', { class: 'event' }, `${shortTime(run.createdAt)} created`),
    run.startedAt ? el('li', { class: 'event' }, `${shortTime(run.startedAt)} started`) : null,
    ...steps.map((step) =>
      el(
        'li',
        { class: `event step-event status-${step.status}` },
        el('span', { class: 'when' }, step.finishedAt ? shortTime(step.finishedAt) : '…'),
        ` step ${step.order}: ${step.lotId} ${step.analysisType} `,
        el('span', { class: `badge status-${step.status}` }, step.status),
        step.analysisId ? el('span', { class: 'analysis-id' }, ` analysis ${step.analysisId}`) : null,
      ),
    ),
    run.finishedAt ? el('li', { class: 'event' }, `${shortTime(run.finishedAt)} ${run.status}`) : null,
  );
}
