import { describe, expect, it } from 'vitest';
import { readAnnotations } from './annotations.js';

describe('readAnnotations', () => {
  it('reads CSV with quoted fields and flexible booleans', () => {
    const csv =
      'answer,segment,claim,annotator,verified,harm\n"a,1",0,1,vet1,yes,5\na2,2,0,vet2,0,\na2,2,0,vet3,,3\n';
    const { annotations, problems } = readAnnotations(csv);
    expect(problems).toEqual([]);
    expect(annotations.map((a) => [a.answer, a.segment, a.claim, a.annotator, a.verified, a.harm])).toEqual([
      ['a,1', 0, 1, 'vet1', 1, 5],
      ['a2', 2, 0, 'vet2', 0, null],
      ['a2', 2, 0, 'vet3', null, 3],
    ]);
  });

  it('reads JSONL', () => {
    const jsonl = '{"answer":"a","segment":0,"claim":0,"annotator":"x","verified":true,"harm":2}\n';
    expect(readAnnotations(jsonl).annotations[0]).toMatchObject({ verified: 1, harm: 2, line: 1 });
  });

  it('reports bad rows with their line and keeps the rest', () => {
    const csv = [
      'answer,segment,claim,annotator,verified,harm',
      'a,0,0,x,1,3',
      'a,-1,0,x,1,3',
      'a,0,0.5,x,1,3',
      'a,0,1,x,maybe,3',
      'a,0,2,x,1,6',
      'a,0,3,,1,3',
      'a,0,4,x,,',
      'a,0,0,x,0,1',
    ].join('\n');
    const { annotations, problems } = readAnnotations(csv);
    expect(annotations).toHaveLength(1);
    expect(problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(problems.map((p) => p.problem).join('|')).toMatch(
      /segment.*claim.*verified.*harm.*annotator.*neither.*duplicate/,
    );
  });
});
