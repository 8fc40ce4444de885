import type { ElementType } from './page.js';

/** Each element type's colour. Red is kept for problems. */
export const elementColours: Record<ElementType, string> = {
  map: '#4e79a7',
  legend: '#f28e2b',
  title: '#59a14f',
  statistics: '#76b7b2',
  text: '#b8860b',
  logo: '#b07aa1',
  scale: '#9c755f',
  northArrow: '#3f6e8c',
};
export const unknownElementColour = '#79706e';
export const problemColour = '#d62728';
