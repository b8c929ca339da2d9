export { ParsePool } from './pool.js';
export { ParseRefused } from './refusal.js';
