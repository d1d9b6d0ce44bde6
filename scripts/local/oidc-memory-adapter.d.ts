/** oidc-provider's own in-memory storage (an LRU with expiry), by its module path: the package exports it only as its silent default. */
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { AdapterConstructor } from 'oidc-provider';
  export function createMemoryAdapter(clockTolerance?: number): AdapterConstructor;
}
