// Starts the pairwise comparison worker from the TypeScript sources (tests and benchmarks run without a build).
import { register } from 'tsx/esm/api';

register();
await import('./pairwise-worker.js');
