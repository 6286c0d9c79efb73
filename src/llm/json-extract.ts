/**
 * Finds the JSON value in a model reply: the whole reply, a fenced ```json block, or the first
 * balanced {...} / [...] in chatty text. Returns undefined when nothing parses. Never throws.
 */
export function extractJson(text: string): { value: unknown } | undefined {
  const trimmed = text.trim();
  const direct = tryParse(trimmed);
  if (direct) return direct;
  for (const m of trimmed.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) {
    const fenced = tryParse((m[1] ?? '').trim());
    if (fenced) return fenced;
  }
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i];
    if (c !== '{' && c !== '[') continue;
    const end = balancedEnd(trimmed, i);
    if (end < 0) continue;
    const found = tryParse(trimmed.slice(i, end + 1));
    if (found) return found;
  }
  return undefined;
}

function tryParse(text: string): { value: unknown } | undefined {
  if (text === '') return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Index of the bracket closing the one at `start`, skipping strings; -1 if unbalanced. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
