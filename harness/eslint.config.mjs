export { default } from '../test/eslint.config.mjs';
