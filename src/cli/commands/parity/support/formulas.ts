import { TEMPLATES, type Step } from './context.js';

// The formulas `parity` sends to validate-formula: one or more of each kind of verdict in the
// project's corpus of published spectral indices (valid, using L, unknown bands, divisors
// without eps, powers), and a few syntax errors. Small, so a run stays within its budget.
const parityFormulas: readonly string[] = [
  "(NIR - 0.66 * S1) / (NIR + 0.66 * S1)",
  "(S2 - S1/G)/(S2 + S1/G)",
  "(RE2 - RE)/(RE2 + RE)",
  "(1 / G) - (1 / RE)",
  "(1.0 / B) - (1.0 / G)",
  "(1 / (G + eps)) - (1 / (RE + eps))",
  "(2.0 * G - R - B) / (2.0 * G + R + B + eps)",
  "NIR/(NIR + G + R + eps)",
  "sla * (NIR - sla * R - slb) / (sla * NIR + R - sla * slb + 0.08 * (1 + sla ** 2.0))",
  "((NIR ** nexp) - (R ** nexp)) / ((NIR ** nexp) + (R ** nexp))",
  "((NIR ** 2) - R)/((NIR ** 2) + R)",
  "B / (R + G + B)",
  "NIR/G",
  "(NIR - R) / (NIR + R + 0.16)",
  "g * (NIR - R) / (NIR + C1 * R - C2 * B + L)",
  "(1 + L)*(NIR - (R - gamma * (R - B))) / (NIR + (R - gamma * (R - B)) + L)",
  "(((B + G + R) / 3.0) - NIR)/(((B + G + R) / 3.0) + NIR)",
  "(((RE - R) - 0.2 * (RE - G)) * (RE / R)) / (1.16 * (NIR - R) / (NIR + R + 0.16))",
  "(1.0 + L) * (NIR - G) / (NIR + G + L)",
  "(1.0 + L) * (NIR - R) / (NIR + R + L)",
  "(1.0 + L) * (NIR - G) / (NIR + G + L + eps)",
  "(1.0 + L) * (NIR - R) / (NIR + R + L + eps)",
  "(1 + L)*((NIR ** 2) - R)/((NIR ** 2) + R + L)",
  "((S1 - NIR)/(10.0 * (T + S1) ** 0.5)) - (((NIR - R) * (1.0 + L))/(NIR - R + L)) - (G - S1)/(G + S1)",
  "(((NIR - R)/(NIR + R)) - ((G - NIR)/(G + NIR)))/(((NIR - R)/(NIR + R)) + ((G - NIR)/(G + NIR)))",
  "(NIR - R",
  "NIR +* R",
  "NIR - R)",
  "2 * * NIR",
  "(NIR - R) / (NIR + R + eps) NIR",
  "ndvi",
  "L",
  "0.5",
];

/** validate-formula without a formula, then with each of the formulas above. */
export const formulaSteps: readonly Step[] = [
  {
    name: 'validateFormula.missing',
    operation: 'validateFormula',
    request: () => ({ method: 'POST', path: `${TEMPLATES}/validate-formula`, body: {} }),
  },
  ...parityFormulas.map(
    (formula, at): Step => ({
      name: `validateFormula.${String(at + 1).padStart(2, '0')}`,
      operation: 'validateFormula',
      request: () => ({ method: 'POST', path: `${TEMPLATES}/validate-formula`, body: { formula } }),
      values: ['errors[*].offset'],
    }),
  ),
];
