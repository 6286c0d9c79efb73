/**
 * Worker-thread entry of `gradeDeterministic`: receives the rows of one paper at a time, scores
 * them and posts the scores back (see `parallel-grading.ts` for the protocol).
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { alternativeMatcher, scoreOptions } from './deterministic-grader.js';
import {
  WORKER_READY,
  type WorkerRequest,
  type WorkerResponse,
  type WorkerSettings,
} from './parallel-grading.js';
import { scorePaperRows } from './score-paper-rows.js';

const settings = workerData as WorkerSettings;
const match = alternativeMatcher(settings.match);
const options = scoreOptions(settings.match);

parentPort?.on('message', (request: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    const scores = scorePaperRows(request, request.rows, match, settings.quoteMode, options);
    response = { group: request.group, thread: threadId, scores };
  } catch (error) {
    response = { group: request.group, error: (error as Error).message };
  }
  parentPort?.postMessage(response);
});
parentPort?.postMessage(WORKER_READY);
