/**
 * What a `JSON.parse` error says, pointed at the spot. V8 gives "position N" for some faults and only
 * an excerpt for others ("Unexpected token '}', "{"a": }" is not valid JSON"), and a user cannot find
 * either in a 29,000-line file. This finds the offset itself (a JSON grammar walk that stops at the
 * first fault) and gives a column (and line, for text of several lines) with the characters around it.
 */
export function jsonSyntaxProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const what = message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/ in JSON at position \d+/, '')
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/^Unexpected end of JSON input$/, 'the text ends before the JSON value does');
  const position = syntaxErrorOffset(text);
  if (position === null) return what;
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - (before.lastIndexOf('\n') + 1) + 1;
  const near = text.slice(Math.max(0, position - 20), position + 20).replace(/\s+/g, ' ');
  const spot = text.includes('\n') ? `line ${line}, column ${column}` : `column ${column}`;
  return near.trim() === '' ? `${spot}: ${what}` : `${spot}: ${what}, near \`${near}\``;
}

/** The offset of the first character that makes `text` not JSON, or null when it is JSON. */
export function syntaxErrorOffset(text: string): number | null {
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (at = i): never => {
    throw at;
  };
  const literal = (word: string) => {
    for (const c of word) {
      if (text[i] !== c) fail();
      i++;
    }
  };
  const string = () => {
    i++; // the opening quote
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) fail(i + k);
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x') || i >= text.length) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' || m[0] === '') fail();
    i += m![0].length;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail();
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return null;
  } catch (offset) {
    // A walk too deep for the stack (JSON.parse has no such limit) leaves V8's own message.
    if (typeof offset !== 'number') return null;
    return Math.min(offset, text.length);
  }
}
