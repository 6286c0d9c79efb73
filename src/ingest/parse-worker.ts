/**
 * Worker-thread entry of the ingest pool (`store/ingest-pool.ts`): receives one file's bytes at a
 * time, parses them into documents and posts them back (a coded error as its code, problem and
 * fix, so the writer records the file as failed exactly as a parse in its own thread would).
 */
import { parentPort } from 'node:worker_threads';
import { isCitegeistError } from '../core/index.js';
import type { ParseRequest, ParseResponse } from './parse-protocol.js';
import { readDocumentBytes } from './read-document.js';

parentPort?.on('message', async (request: ParseRequest) => {
  let response: ParseResponse;
  try {
    const docs = await readDocumentBytes(new Uint8Array(request.bytes), request.context);
    response = { task: request.task, docs };
  } catch (error) {
    response = isCitegeistError(error)
      ? { task: request.task, coded: { code: error.code, problem: error.problem, fix: error.fix } }
      : { task: request.task, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(response);
});
