import type { GenerateRequest } from '../../../llm/index.js';
import { FakeLlm } from '../../../testing/index.js';

/** What the scripted judges answer for one claim (a list = one entry per repeat, in call order). */
export interface ScriptedClaim {
  verdict?: 'supported' | 'unsupported' | 'contradicted' | 'fail' | ('supported' | 'unsupported' | 'contradicted' | 'fail')[];
  harm?: number | 'fail' | (number | 'fail')[];
  /**
   * The evidence quote of a supported verdict (a list = one per repeat). Absent: the first cited
   * excerpt, verbatim (a quote that is located); `''` or `null`: an empty / missing quote.
   */
  evidence?: string | null | (string | null)[];
}

/** A scripted world: segment text (markers included) → claims, claim text → judgments. */
export interface Script {
  segments: Record<string, string[] | 'fail'>;
  claims: Record<string, ScriptedClaim>;
}

function block(text: string, tag: string): string {
  const m = new RegExp(`<${tag}[^>]*>\\n([\\s\\S]*?)\\n</${tag}>`).exec(text);
  return m?.[1] ?? '';
}

function kind(request: GenerateRequest): 'decompose' | 'verify' | 'harm' | 'joint' {
  const system = request.messages[0]?.content ?? '';
  if (system.includes('atomic claims')) return 'decompose';
  if (system.includes('two judgments')) return 'joint';
  if (system.includes('harm potential')) return 'harm';
  return 'verify';
}

/**
 * A FakeLlm that answers every VETSCORE prompt from a script (by reading the delimited passage or
 * claim out of the prompt). Repeated calls for one claim take the next entry of a list. An
 * unscripted passage or claim throws, so a test cannot pass on an unexpected call.
 */
export function scriptedJudge(script: Script, id = 'fake:judge'): FakeLlm {
  return new FakeLlm(scriptedReply(script), { id });
}

/** The reply function behind scriptedJudge (also usable behind a fake HTTP server). */
export function scriptedReply(script: Script): (request: GenerateRequest) => string | { fail: string } {
  const seen = new Map<string, number>();
  const next = <T>(key: string, value: T | T[]): T => {
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return Array.isArray(value) ? (value[n] as T) : value;
  };
  return (request) => {
      const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
      const k = kind(request);
      if (k === 'decompose') {
        const passage = block(user, 'passage');
        const claims = script.segments[passage];
        if (claims === undefined) throw new Error(`unscripted passage: ${passage}`);
        return claims === 'fail' ? { fail: 'HTTP 500' } : JSON.stringify({ claims });
      }
      const claim = block(user, 'claim');
      const c = script.claims[claim];
      if (c === undefined) throw new Error(`unscripted claim: ${claim}`);
      const verdict = k === 'harm' ? undefined : next(`v:${claim}`, c.verdict ?? 'supported');
      const harm = k === 'verify' ? undefined : next(`h:${claim}`, c.harm ?? 1);
      if (verdict === 'fail' || harm === 'fail') return { fail: 'judge timed out' };
      const quote =
        verdict !== 'supported'
          ? undefined
          : c.evidence === undefined
            ? block(user, 'excerpt')
            : next(`e:${k}:${claim}`, c.evidence);
      const evidence = quote === undefined || quote === null ? {} : { evidence_quote: quote };
      if (k === 'verify') return JSON.stringify({ verdict, rationale: `scripted ${verdict}`, ...evidence });
      if (k === 'harm') return JSON.stringify({ harm, rationale: `scripted harm ${harm}` });
      return JSON.stringify({ verdict, harm, rationale: `scripted ${verdict}/${harm}`, ...evidence });
  };
}
