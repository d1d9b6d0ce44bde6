/** Test files run at once (vitest's maxWorkers): the machine's two cores. */
export const TEST_WORKERS = 2;
