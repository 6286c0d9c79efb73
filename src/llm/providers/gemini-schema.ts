type Json = Record<string, unknown>;

/** Keywords Gemini's responseSchema (an OpenAPI 3.0 subset) accepts. */
const KEEP = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'properties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'propertyOrdering',
  'title',
]);

/**
 * Converts a JSON Schema (as zod emits it) to Gemini's responseSchema subset: `$ref`s are inlined
 * from `$defs`, `const` becomes a one-value enum, `["T", "null"]` and `anyOf [T, null]` become
 * `nullable`, non-string enums become strings, and unsupported keywords (additionalProperties,
 * pattern, default, $schema, …) are dropped — the zod validation after the call still checks them.
 */
export function toGeminiSchema(schema: Json): Json {
  const defs = (schema.$defs ?? schema.definitions ?? {}) as Record<string, Json>;
  return convert(schema, defs, 0);
}

function convert(node: Json, defs: Record<string, Json>, depth: number): Json {
  if (depth > 32) return { type: 'object' };
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace(/^#\/(\$defs|definitions)\//, '');
    const target = defs[name];
    return target ? convert(target, defs, depth + 1) : { type: 'object' };
  }
  const out: Json = {};
  let nullable = false;
  if (Array.isArray(node.anyOf) || Array.isArray(node.oneOf)) {
    const options = ((node.anyOf ?? node.oneOf) as Json[]).filter((o) => {
      if (o.type === 'null') {
        nullable = true;
        return false;
      }
      return true;
    });
    if (options.length === 1 && options[0]) Object.assign(out, convert(options[0], defs, depth + 1));
    else out.anyOf = options.map((o) => convert(o, defs, depth + 1));
  }
  if ('const' in node) out.enum = [String(node.const)];
  for (const [key, value] of Object.entries(node)) {
    if (!KEEP.has(key) || key === 'anyOf') continue;
    if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      if (types.length < value.length) nullable = true;
      out.type = types[0] ?? 'string';
    } else if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Json>).map(([k, v]) => [k, convert(v, defs, depth + 1)]),
      );
    } else if (key === 'items') {
      out.items = convert(value as Json, defs, depth + 1);
    } else if (key === 'enum') {
      out.enum = (value as unknown[]).filter((v) => v !== null).map(String);
      if ((value as unknown[]).includes(null)) nullable = true;
      out.type = 'string';
    } else {
      out[key] = value;
    }
  }
  if (out.type === 'integer' && Array.isArray(out.enum)) out.type = 'string';
  if (out.enum && !out.type) out.type = 'string';
  if (nullable) out.nullable = true;
  return out;
}
