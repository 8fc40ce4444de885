import { MAX_FORMULA_LENGTH } from '../../../../formula/rules.js';
import { TEMPLATES } from './requests.js';
import { formulaLength } from './spec-rules.js';
import type { Step } from './step.js';

// The formulas `parity` sends to validate-formula: one or more of each kind of verdict in the
// project's corpus of published spectral indices (valid, using L, unknown bands, divisors
// without eps, powers), and a few syntax errors. Small, so a run stays within its budget.
const corpusFormulas: readonly string[] = [
  "(NIR - 0.66 * S1) / (NIR + 0.66 * S1)",
  "(RE2 - RE)/(RE2 + RE)",
  "(1 / G) - (1 / RE)",
  "(1 / (G + eps)) - (1 / (RE + eps))",
  "(2.0 * G - R - B) / (2.0 * G + R + B + eps)",
  "NIR/(NIR + G + R + eps)",
  "sla * (NIR - sla * R - slb) / (sla * NIR + R - sla * slb + 0.08 * (1 + sla ** 2.0))",
  "((NIR ** nexp) - (R ** nexp)) / ((NIR ** nexp) + (R ** nexp))",
  "B / (R + G + B)",
  "NIR/G",
  "g * (NIR - R) / (NIR + C1 * R - C2 * B + L)",
  "(1 + L)*(NIR - (R - gamma * (R - B))) / (NIR + (R - gamma * (R - B)) + L)",
  "(((RE - R) - 0.2 * (RE - G)) * (RE / R)) / (1.16 * (NIR - R) / (NIR + R + 0.16))",
  "(1.0 + L) * (NIR - G) / (NIR + G + L)",
  "(1.0 + L) * (NIR - G) / (NIR + G + L + eps)",
  "(1 + L)*((NIR ** 2) - R)/((NIR ** 2) + R + L)",
  "((S1 - NIR)/(10.0 * (T + S1) ** 0.5)) - (((NIR - R) * (1.0 + L))/(NIR - R + L)) - (G - S1)/(G + S1)",
  "(NIR - R",
  "NIR +* R",
  "NIR - R)",
  "2 * * NIR",
  "(NIR - R) / (NIR + R + eps) NIR",
  "ndvi",
  "L",
  "0.5",
];

const VALID = '(NIR - R) / (NIR + R + eps)';

/** Where "every division must involve eps" and the length limit can be read more than one way. */
const edges: Readonly<Record<string, string>> = {
  epsInNumeratorOnly: '(NIR + eps) / R',
  epsAsDivisor: 'NIR / eps',
  epsInSqrt: 'NIR / sqrt(R + eps)',
  nestedWithoutEps: 'NIR / (R / G + eps)',
  nestedWithEps: 'NIR / (R / (G + eps) + eps)',
};

const validating = (name: string, formula: string, extra: Partial<Step> = {}): Step => ({
  name: `validateFormula.${name}`,
  operation: 'validateFormula',
  request: () => ({ method: 'POST', path: `${TEMPLATES}/validate-formula`, body: { formula } }),
  values: ['errors[*].offset'],
  ...extra,
});

/** validate-formula without a formula, with the corpus, at the rule's edges and at the length limit. */
export const formulaSteps: readonly Step[] = [
  { name: 'validateFormula.missing', operation: 'validateFormula', request: () => ({ method: 'POST', path: `${TEMPLATES}/validate-formula`, body: {} }) },
  ...corpusFormulas.map((formula, at) => validating(String(at + 1).padStart(2, '0'), formula)),
  ...Object.entries(edges).map(([name, formula]) => validating(name, formula)),
  validating('longest', VALID.padEnd(MAX_FORMULA_LENGTH), { specification: formulaLength(MAX_FORMULA_LENGTH) }),
  validating('tooLong', VALID.padEnd(MAX_FORMULA_LENGTH + 1), { specification: formulaLength(MAX_FORMULA_LENGTH + 1) }),
];
