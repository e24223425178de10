export { default } from '../eslint.node-programs.mjs';
