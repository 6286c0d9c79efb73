// Starts the index build worker from the TypeScript sources (tests and benchmarks run without a build).
import { register } from 'tsx/esm/api';

register();
await import('./index-worker.js');
