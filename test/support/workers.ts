/** Test files run at once (vitest's maxWorkers): the machine's two cores. Each gets a DynamoDB Local of its own (global-setup.ts). */
export const TEST_WORKERS = 2;
