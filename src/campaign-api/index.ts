export * from './enums.js';
export * from './field-rules.js';
export * from './issue-messages.js';
export * from './campaign-fields.js';
export * from './operations.js';
export * from './errors.js';
export type * from './api.js';
