/**
 * python-compat/: Python's behaviour where a reference implementation's numbers or bytes depend on
 * it (json.dumps, round, int(), random.Random, numpy's pairwise sums), in one place.
 */
export * from './python-int.js';
export * from './python-json.js';
export { exactMean, numpyMean, numpyMedian, numpySum } from './python-numerics.js';
export { PythonRandom } from './python-random.js';
export { pythonRound } from './python-round.js';
