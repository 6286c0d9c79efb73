import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';
import { parseNumberFlag } from './option-parsers.js';

describe('parseNumberFlag (the one parser of numeric flags)', () => {
  it.each([
    ['3', { integer: true, min: 1 }, 3],
    ['+3', { integer: true, min: 1 }, 3],
    [' 7 ', { integer: true }, 7],
    ['0', { integer: true, min: 0 }, 0],
    ['-4', { integer: true }, -4],
    ['0.5', { min: 0 }, 0.5],
    ['.5', {}, 0.5],
    ['2e3', {}, 2000],
    ['10', { integer: true, max: 10 }, 10],
  ])('takes %j with %j as %d', (value, rule, want) => {
    expect(parseNumberFlag('--n', value, rule)).toBe(want);
  });

  it.each([
    ['abc', { integer: true, min: 1 }, /--n must be a whole number at least 1, got "abc"/],
    ['', { integer: true }, /got ""/],
    ['-1', { integer: true, min: 1 }, /at least 1, got "-1"/],
    ['1.5', { integer: true, min: 1 }, /whole number/],
    ['99999999999999999999999', { integer: true }, /whole number/],
    ['0x10', { integer: true }, /whole number/],
    ['1e999', {}, /must be a number/],
    ['NaN', {}, /must be a number/],
    ['Infinity', {}, /must be a number/],
    ['11', { integer: true, max: 10 }, /at most 10/],
    ['5 apples', { integer: true }, /whole number/],
  ])('refuses %j with %j', (value, rule, message) => {
    expect(() => parseNumberFlag('--n', value, rule)).toThrow(message);
  });

  it.each([
    ['answer', '--dataset', 'd.jsonl', '--model', 'extractive', '--out', 'o.jsonl', '--limit', 'abc'],
    ['answer', '--dataset', 'd.jsonl', '--model', 'extractive', '--out', 'o.jsonl', '--limit', '-1'],
    ['answer', '--dataset', 'd.jsonl', '--model', 'extractive', '--out', 'o.jsonl', '--limit', '1.5'],
    ['answer', '--dataset', 'd.jsonl', '--model', 'extractive', '--out', 'o.jsonl', '-k', '0'],
    ['trec-eval', '-M', '-5', 'q', 'r'],
    ['trec-eval', '-M', '99999999999999999999999', 'q', 'r'],
    ['grade', '--seed', 'x', 'g.jsonl'],
    ['compare', '--iterations', '0', 'q', 'a', 'b'],
    ['search', 'q', '-k', '1e3x'],
  ])('the CLI refuses %j before doing anything (BAD_OPTION, exit 1)', async (...argv) => {
    const { io, stderr } = memoryIo();
    expect(await runCli(argv, io)).toBe(1);
    expect(stderr()).toMatch(/^error \[BAD_OPTION\]: \S+ must be .*\n {2}fix: Pass e\.g\./);
  });
});
