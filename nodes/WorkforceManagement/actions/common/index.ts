/**
 * What the operations of two or more resources share, one file per concern: fields.ts
 * (descriptions), validation.ts (the rules an input must meet before a request is sent),
 * parameters.ts (reading parameters into ids, limits and request bodies), output.ts (the Output
 * choice that shapes returned records), operations.ts (the shapes operations share: one record,
 * Update, Get Many). A check only one resource needs lives beside it.
 */
export * from './fields';
export * from './operations';
export * from './output';
export * from './parameters';
export * from './validation';
