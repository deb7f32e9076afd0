/**
 * Jest's transform for the packages that ship ES modules only (Nest 12's). Node loads them from the CommonJS build
 * through require(esm), but Jest's module loader cannot before Node 24.9: swc turns them into CommonJS, as it does
 * our TypeScript.
 *
 * One thing more: such a package that requires a CommonJS dependency does it with
 * `createRequire(import.meta.url)`, which would load that dependency with Node's own require, outside Jest's module
 * registry and its sandbox's globals. class-validator and class-transformer keep their metadata on a global, so
 * @nestjs/mapped-types would then read another store than the one our DTOs' decorators wrote. Jest's `require` of
 * the module resolves from the module's own file, as createRequire(import.meta.url) does, so it takes its place.
 */
const { createTransformer } = require('@swc/jest');

const swc = createTransformer({
  jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
  module: { type: 'commonjs' },
});

/** `createRequire(import.meta.url)` as swc writes it in CommonJS, however `createRequire` was imported. */
const CREATE_REQUIRE =
  /\(0, _(?:node)?module\d*\.createRequire\)\(require\("url"\)\.pathToFileURL\(__filename\)\.toString\(\)\)/g;

/** Changes whenever what this file does to swc's output changes, so that Jest's cache is not reused. */
const VERSION = 'createRequire-1';

module.exports = {
  process(source, path, options) {
    const result = swc.process(source, path, options);
    return { ...result, code: result.code.replace(CREATE_REQUIRE, 'require') };
  },
  getCacheKey(source, path, options) {
    return `${swc.getCacheKey(source, path, options)}:${VERSION}`;
  },
};
