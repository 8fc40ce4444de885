export * from './vocabulary.js';
export * from './common.js';
export * from './errors.js';
export * from './catalogs.js';
export * from './template.js';
export * from './resources.js';
export * from './template-rules.js';
