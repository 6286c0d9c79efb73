import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider.js';
import { modelId, parseModelString } from './model-string.js';

describe('parseModelString', () => {
  it.each([
    ['openai:gpt-4.1-mini', { kind: 'openai', model: 'gpt-4.1-mini' }],
    ['anthropic:claude-sonnet-4-20250514', { kind: 'anthropic', model: 'claude-sonnet-4-20250514' }],
    ['gemini:gemini-2.5-flash', { kind: 'gemini', model: 'gemini-2.5-flash' }],
    ['ollama:qwen2.5:7b', { kind: 'ollama', model: 'qwen2.5:7b' }],
    ['vllm:meta-llama/Llama-3.1-8B-Instruct', { kind: 'vllm', model: 'meta-llama/Llama-3.1-8B-Instruct' }],
    [
      'openai-compatible:http://127.0.0.1:8080/v1/#my-model',
      { kind: 'openai-compatible', model: 'my-model', baseUrl: 'http://127.0.0.1:8080/v1' },
    ],
    ['gguf:models/qwen2.5-0.5b.Q4_K_M.gguf', { kind: 'gguf', model: 'models/qwen2.5-0.5b.Q4_K_M.gguf' }],
    ['  openai:gpt-4o  ', { kind: 'openai', model: 'gpt-4o' }],
  ])('parses %s', (spec, expected) => {
    expect(parseModelString(spec)).toEqual(expected);
  });

  it.each([
    ['gpt-4.1', /has no provider prefix/],
    ['azure:gpt-4', /unknown provider "azure"/],
    ['openai:', /names no model/],
    [
      'openai-compatible:http://x/v1',
      /openai-compatible:<http\(s\)-base-url>\[,<http\(s\)-base-url>…\]#<model>/,
    ],
    ['openai-compatible:http://a/v1,#m', /openai-compatible:<http/],
    ['openai-compatible:http://a/v1,http://a/v1/#m', /names one base URL twice/],
    ['openai-compatible:ftp://x#m', /openai-compatible:<http/],
  ])('rejects %s', (spec, message) => {
    expect(() => parseModelString(spec)).toThrow(message);
  });

  it('reads the replicas of one model, comma-separated, and keeps them in its id', () => {
    const spec = parseModelString('openai-compatible:http://a:8000/v1/, http://b:8000/v1#qwen');
    expect(spec).toEqual({
      kind: 'openai-compatible',
      model: 'qwen',
      baseUrl: 'http://a:8000/v1',
      replicas: ['http://a:8000/v1', 'http://b:8000/v1'],
    });
    expect(modelId(spec)).toBe('openai-compatible:http://a:8000/v1,http://b:8000/v1#qwen');
  });

  it('round-trips ids', () => {
    expect(modelId(parseModelString('openai-compatible:https://h/v1#m'))).toBe(
      'openai-compatible:https://h/v1#m',
    );
    expect(modelId(parseModelString('ollama:qwen2.5:7b'))).toBe('ollama:qwen2.5:7b');
  });
});

describe('createProvider', () => {
  it.each([
    ['openai:gpt-4.1', 'OPENAI_API_KEY'],
    ['anthropic:claude-3-5-haiku-latest', 'ANTHROPIC_API_KEY'],
    ['gemini:gemini-2.5-pro', 'GEMINI_API_KEY'],
  ])('%s without a key names %s', (spec, variable) => {
    expect(() => createProvider(spec, { env: {} })).toThrow(new RegExp(`${variable} is not set`));
  });

  it('asks for VLLM_BASE_URL for vllm models', () => {
    expect(() => createProvider('vllm:m', { env: {} })).toThrow(/VLLM_BASE_URL/);
  });

  it.each([
    [{}, 'http://127.0.0.1:11434/v1'],
    [{ OLLAMA_HOST: 'gpu-box:11434' }, 'http://gpu-box:11434/v1'],
    [{ OLLAMA_HOST: 'https://ollama.example.org/' }, 'https://ollama.example.org/v1'],
  ])('resolves the ollama base URL from %j', (env, url) => {
    expect(createProvider('ollama:llama3.2', { env }).transport.baseUrl).toBe(url);
  });

  it('sets id, family and base URL', () => {
    const p = createProvider('openai:gpt-4.1-mini', { env: { OPENAI_API_KEY: 'sk-x' } });
    expect([p.id, p.family, p.transport.baseUrl]).toEqual([
      'openai:gpt-4.1-mini',
      'openai',
      'https://api.openai.com/v1',
    ]);
    expect(createProvider('ollama:qwen2.5:7b').family).toBe('alibaba');
  });

  it('names the install command when node-llama-cpp is missing (at the first call, not at creation)', async () => {
    const missing = async (name: string) => {
      throw Object.assign(new Error(`Cannot find package '${name}' imported from x`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    const provider = createProvider('gguf:/models/tiny.gguf', { importer: missing });
    await expect(provider.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      /optional package node-llama-cpp[\s\S]*npm install node-llama-cpp@3\.21\.1/,
    );
  });

  it('uses the real dynamic import by default (node-llama-cpp is not installed here)', async () => {
    const provider = createProvider('gguf:/models/tiny.gguf');
    await expect(provider.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      /npm install node-llama-cpp@3\.21\.1|GGUF model file/,
    );
  });
});
