export { Freshness, type Rebuild, readRecipe } from './report-freshness.js';
export { isInside, resolveRequestPath } from './safe-path.js';
export { type RunningServer, type ServeOptions, startServer } from './serve.js';
