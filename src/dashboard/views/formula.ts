import { checkFormula, defaultFormulaRules, evaluate, type FormulaCheck } from '../../formula/index.js';
import { append, el, labelled } from '../dom.js';
import type { View } from './view.js';

/** The value of eps, as `reportctl formula eval` takes it. */
const EPS = 1e-9;
const SAMPLE = '(NIR - R) / (NIR + R + eps)';

/**
 * The formula engine itself, run in the page: the verdict, the spans of the errors underlined,
 * usesL, and the value for the band values set with sliders. It needs no key and no service.
 */
export function formulaView(): View {
  const input = el('input', { type: 'text', id: 'formula-input', value: SAMPLE, spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'formula-verdict' });
  const source = el('p', { class: 'formula-source', id: 'formula-source', 'aria-label': 'Formula with its errors underlined' });
  const verdict = el('p', { id: 'formula-verdict', role: 'status' });
  const usesL = el('span', { id: 'formula-uses-l' });
  const value = el('output', { id: 'formula-value', for: 'formula-input' });
  const errors = el('ul', { id: 'formula-errors', class: 'problems' });
  const values: Record<string, number> = { eps: EPS };
  const sliders = el('fieldset', { class: 'bands' }, el('legend', {}, 'Band values'));
  for (const name of [...defaultFormulaRules.allowedBands, 'L']) {
    values[name] = name === 'L' ? 0.5 : 0.3;
    if (name === 'NIR') values[name] = 0.6;
    const shown = el('output', { id: `band-${name}-value` }, String(values[name]));
    const slider = el('input', { type: 'range', id: `band-${name}`, name, min: 0, max: 1, step: 0.01, value: values[name] });
    slider.addEventListener('input', () => {
      values[name] = Number(slider.value);
      shown.textContent = slider.value;
      update();
    });
    append(sliders, el('div', { class: 'band' }, labelled(name, slider), shown));
  }
  const update = () => {
    const check = checkFormula(input.value);
    verdict.textContent = check.valid ? 'valid' : 'invalid';
    verdict.className = check.valid ? 'verdict valid' : 'verdict invalid';
    usesL.textContent = check.usesL ? 'yes' : 'no';
    source.replaceChildren(...underlined(input.value, check));
    errors.replaceChildren(
      ...check.errors.map((error) => el('li', { class: 'diagnostic' }, el('code', {}, error.code), ` ${error.message}`, error.suggestion ? el('span', { class: 'meta' }, ` (${error.suggestion})`) : null)),
    );
    value.textContent = check.valid && check.ast ? String(evaluate(check.ast, values)) : '—';
  };
  input.addEventListener('input', update);
  update();
  const element = el(
    'section',
    { class: 'view' },
    el('h2', {}, 'Formula playground'),
    el('p', {}, 'Checked in this page by the same engine as `reportctl formula check` and the service; nothing is sent anywhere.'),
    labelled('Formula', input),
    source,
    verdict,
    errors,
    el('dl', { class: 'pairs' }, el('dt', {}, 'Uses L'), el('dd', {}, usesL), el('dt', {}, 'Value'), el('dd', {}, value)),
    sliders,
  );
  return { title: 'Formula playground', element };
}

/** The formula as text, each error's span wrapped in <mark> (underlined by the stylesheet). */
function underlined(formula: string, check: FormulaCheck): Node[] {
  const spans = check.errors.filter((error) => error.length > 0).sort((a, b) => a.offset - b.offset);
  const nodes: Node[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.offset < at) continue;
    if (span.offset > at) nodes.push(document.createTextNode(formula.slice(at, span.offset)));
    nodes.push(el('mark', { class: 'error-span', title: span.message }, formula.slice(span.offset, span.offset + span.length)));
    at = span.offset + span.length;
  }
  if (at < formula.length) nodes.push(document.createTextNode(formula.slice(at)));
  return nodes;
}
