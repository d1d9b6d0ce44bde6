export type { components, operations, paths } from './schema.generated.js';
