import { z } from 'zod';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import { requireModel } from '../setup/require-model.js';

const Pong = z.object({ reply: z.string(), ok: z.boolean() });

/** `citegeist llm ping --model X`: one text and one structured round trip, with their figures. */
export const registerLlm: RegisterCommand = (program, ctx) => {
  const llm = program.command('llm').description('check and inspect model connections');
  addLlmOptions(
    llm
      .command('ping')
      .description('one round trip to a model: latency, tokens, cost and structured-output support'),
  ).action(async (flags: LlmFlags) => {
    const settings = resolveLlmSettings(
      { ...flags, cache: false, cacheOnly: false },
      ctx.config(),
      ctx.io.cwd,
    );
    const model = requireModel(settings.model, {
      problem: 'No model to ping: --model is not set and the config has no "model".',
      fix: 'Pass --model, e.g. --model ollama:qwen2.5:7b.',
    });
    const runtime = createLlmRuntime(settings, ctx.io.env);
    try {
      const provider = runtime.provider(model);
      const text = await provider.generate({
        messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
        maxTokens: 16,
        temperature: 0,
      });
      const object = await provider.generateObject({
        messages: [{ role: 'user', content: 'Return {"reply": "pong", "ok": true} as JSON.' }],
        schema: Pong,
        schemaName: 'pong',
        maxTokens: 64,
        temperature: 0,
        maxRepairs: 1,
      });
      const report = {
        model: provider.id,
        family: provider.family,
        structuredOutput: provider.structuredOutput,
        text: text.ok
          ? {
              ok: true,
              reply: text.text.trim().slice(0, 80),
              latencyMs: Math.round(text.latencyMs),
              usage: text.usage,
              costUsd: text.costUsd,
              retries: text.retries,
            }
          : { ok: false, reason: text.reason, latencyMs: Math.round(text.latencyMs) },
        structured: object.ok
          ? {
              ok: true,
              value: object.value,
              latencyMs: Math.round(object.latencyMs),
              usage: object.usage,
              repairs: object.retries,
            }
          : { ok: false, reason: object.reason, latencyMs: Math.round(object.latencyMs) },
      };
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(report, null, 2)}\n`);
      else ctx.io.out(renderPing(report));
      if (!text.ok || !object.ok) ctx.setExitCode(1);
    } finally {
      runtime.close();
    }
  });
};

function renderPing(r: {
  model: string;
  family: string;
  structuredOutput: string;
  text: {
    ok: boolean;
    reason?: string;
    reply?: string;
    latencyMs: number;
    usage?: { inputTokens: number; outputTokens: number } | null;
    costUsd?: number | null;
  };
  structured: { ok: boolean; reason?: string; latencyMs: number; repairs?: number };
}): string {
  const usage = r.text.usage
    ? `${r.text.usage.inputTokens} in / ${r.text.usage.outputTokens} out tokens`
    : 'no usage reported';
  const cost =
    r.text.costUsd === null || r.text.costUsd === undefined
      ? 'cost unknown (no price)'
      : `$${r.text.costUsd.toFixed(6)}`;
  const lines = [
    `model       ${r.model} (family ${r.family})`,
    r.text.ok
      ? `text        ok in ${r.text.latencyMs} ms: "${r.text.reply}"; ${usage}; ${cost}`
      : `text        FAILED after ${r.text.latencyMs} ms: ${r.text.reason}`,
    r.structured.ok
      ? `structured  ok in ${r.structured.latencyMs} ms via ${r.structuredOutput}${r.structured.repairs ? ` (${r.structured.repairs} repair)` : ''}`
      : `structured  FAILED via ${r.structuredOutput}: ${r.structured.reason}`,
  ];
  return `${lines.join('\n')}\n`;
}
