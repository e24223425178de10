export { credentialTest } from './credentialTest';
export * as listSearch from './listSearch';
export * as loadOptions from './loadOptions';
