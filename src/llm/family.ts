import type { LlmProvider } from './provider.js';

/** Model-name patterns per family, checked in order against each segment of the name. */
const FAMILIES: [RegExp, string][] = [
  [/^(gpt|chatgpt|o[1-9](\b|-|$)|davinci|babbage|text-embedding|omni-moderation)/, 'openai'],
  [/^claude/, 'anthropic'],
  [/^(gemini|gemma|palm|bison|text-bison|medgemma|codegemma)/, 'google'],
  [/^(llama|codellama|meta-llama|llava)/, 'meta'],
  [/^(qwen|qwq|codeqwen)/, 'alibaba'],
  [/^(mistral|mixtral|codestral|ministral|magistral|pixtral|devstral|open-mistral|open-mixtral)/, 'mistral'],
  [/^deepseek/, 'deepseek'],
  [/^phi(\b|-|\d|$)/, 'microsoft'],
  [/^(command|c4ai|aya|cohere)/, 'cohere'],
  [/^granite/, 'ibm'],
  [/^(olmo|tulu)/, 'ai2'],
  [/^falcon/, 'tii'],
  [/^(glm|chatglm|codegeex)/, 'zhipu'],
  [/^(kimi|moonshot)/, 'moonshot'],
  [/^grok/, 'xai'],
  [/^(nemotron|nv-)/, 'nvidia'],
  [/^yi(-|\d|$)/, '01-ai'],
  [/^smollm/, 'huggingface'],
];

/**
 * The family of a model from its name or provider id ("openai:gpt-4.1" → openai,
 * "ollama:qwen2.5:7b" → alibaba, "gguf:models/Llama-3.1-8B.Q4.gguf" → meta). Organisation prefixes
 * and file paths are looked through; "unknown" when nothing matches.
 */
export function modelFamily(nameOrId: string): string {
  const lower = nameOrId.toLowerCase();
  const withoutProvider = lower.replace(
    /^(openai|anthropic|gemini|ollama|vllm|openai-compatible|gguf|llama-cpp|transformers):/,
    '',
  );
  const model = withoutProvider.includes('#')
    ? withoutProvider.slice(withoutProvider.lastIndexOf('#') + 1)
    : withoutProvider;
  const segments = model.split(/[/\\]/).reverse();
  for (const segment of segments) {
    for (const [pattern, family] of FAMILIES) if (pattern.test(segment)) return family;
  }
  if (lower.startsWith('anthropic:')) return 'anthropic';
  if (lower.startsWith('gemini:')) return 'google';
  if (lower.startsWith('openai:')) return 'openai';
  return 'unknown';
}

type Named = string | Pick<LlmProvider, 'id' | 'family'>;

/**
 * Warnings for judges that grade systems of their own family (self-preference bias): one line per
 * (judge, system) pair that shares a known family, stronger when it is the very same model.
 */
export function circularityWarnings(judges: readonly Named[], systems: readonly Named[]): string[] {
  const warnings: string[] = [];
  for (const judge of judges) {
    const j = describe(judge);
    for (const system of systems) {
      const s = describe(system);
      if (j.family === 'unknown' || j.family !== s.family) continue;
      warnings.push(
        j.id === s.id
          ? `Judge ${j.id} grades its own answers (system ${s.id}): self-grading inflates scores; use a judge from another family.`
          : `Judge ${j.id} and system ${s.id} are both from the ${j.family} family: a judge may prefer its own family's answers; add or use a judge from another family.`,
      );
    }
  }
  return warnings;
}

function describe(x: Named): { id: string; family: string } {
  return typeof x === 'string' ? { id: x, family: modelFamily(x) } : { id: x.id, family: x.family };
}
