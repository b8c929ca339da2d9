export { ParsePool, type ParsePoolStats, type RunOptions } from './pool.js';
export { ParseRefused, type RefusalCode } from './refusal.js';
export { DEFAULT_PARSE_LIMITS, type ParsePoolLimits } from './limits.js';
export type { TaskInput, TaskName, TaskOutput } from './tasks.js';
