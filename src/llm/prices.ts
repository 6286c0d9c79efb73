import type { TokenUsage } from './provider.js';

/** USD per one million tokens. */
export interface Price {
  input: number;
  output: number;
}

/** Keys are provider ids ("openai:gpt-4.1-mini") or bare model names ("gpt-4.1-mini"). */
export type PriceTable = Readonly<Record<string, Price>>;

/** When BUILTIN_PRICES was last checked against the vendors' public price pages. */
export const PRICES_CHECKED = '2025-08';

/**
 * A small table of list prices for common hosted models (USD per 1M tokens, standard tier, no
 * batch or cache discounts). Prices change: override or extend it with the `prices` config key.
 * A dated model name ("gpt-4.1-mini-2025-04-14") matches its longest listed prefix.
 */
export const BUILTIN_PRICES: PriceTable = {
  'openai:gpt-5': { input: 1.25, output: 10 },
  'openai:gpt-5-mini': { input: 0.25, output: 2 },
  'openai:gpt-5-nano': { input: 0.05, output: 0.4 },
  'openai:gpt-4.1': { input: 2, output: 8 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'openai:gpt-4o': { input: 2.5, output: 10 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6 },
  'openai:o3': { input: 2, output: 8 },
  'openai:o3-mini': { input: 1.1, output: 4.4 },
  'openai:o4-mini': { input: 1.1, output: 4.4 },
  'anthropic:claude-opus-4': { input: 15, output: 75 },
  'anthropic:claude-sonnet-4': { input: 3, output: 15 },
  'anthropic:claude-3-7-sonnet': { input: 3, output: 15 },
  'anthropic:claude-3-5-haiku': { input: 0.8, output: 4 },
  'gemini:gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini:gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini:gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
  'gemini:gemini-2.0-flash': { input: 0.1, output: 0.4 },
};

/**
 * The price of a model: an override for the provider id or bare model wins over the built-in
 * table; longest-prefix match in each. Null when unknown (local models, unlisted models).
 */
export function priceFor(providerId: string, model: string, overrides: PriceTable = {}): Price | null {
  return (
    longestPrefix(overrides, providerId) ??
    longestPrefix(overrides, model) ??
    longestPrefix(BUILTIN_PRICES, providerId) ??
    null
  );
}

function longestPrefix(table: PriceTable, name: string): Price | null {
  let best: string | null = null;
  for (const key of Object.keys(table)) {
    const boundary = name.length === key.length || /[-.@:_]/.test(name[key.length] ?? '');
    if (name.startsWith(key) && boundary && (best === null || key.length > best.length)) best = key;
  }
  return best === null ? null : (table[best] ?? null);
}

/** USD for a usage at a price; null when either is unknown. */
export function costOf(usage: TokenUsage | null, price: Price | null): number | null {
  if (!usage || !price) return null;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6;
}
