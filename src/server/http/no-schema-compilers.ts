import type { FastifyServerOptions } from 'fastify';

/**
 * Routes validate with the zod contract (parseOr400) and send bytes they made themselves, so
 * Fastify's own JSON-schema compilers are never needed; left to Fastify, building the app
 * loads ajv and fast-json-stringify, most of `serve`'s start-up (bench/startup.mjs).
 * A route given a Fastify `schema` fails at start with this message.
 */
function unsupported(): never {
  throw new Error('Fastify route schemas are not used here: validate with the zod contract (parseOr400)');
}

export const noSchemaCompilers: FastifyServerOptions['schemaController'] = {
  compilersFactory: { buildValidator: unsupported, buildSerializer: unsupported },
};
