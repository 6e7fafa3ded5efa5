import { describe, expect, it } from 'vitest';
import { wellFormedJson } from './schema';

describe('JSON as the copy gives it to DuckDB', () => {
  it('turns each half of a surrogate pair escaped alone into U+FFFD, and nothing else', () => {
    const lone = JSON.stringify({ a: 'x\ud800y', b: 'z\udfff', c: '\udc00\ud83d' });
    expect(wellFormedJson(lone)).toBe('{"a":"x\\ufffdy","b":"z\\ufffd","c":"\\ufffd\\ufffd"}');
    expect(JSON.parse(wellFormedJson(lone))).toEqual({ a: 'x\ufffdy', b: 'z\ufffd', c: '\ufffd\ufffd' });
    // A whole pair, escaped or not, in either case, stays; so does an escaped backslash before "ud800".
    const kept = [
      '{"a":"\\ud83d\\ude00"}',
      '{"a":"\\uD83D\\uDE00"}',
      '{"a":"😀"}',
      '{"a":"\\\\ud800"}',
      '{"a":"\\\\\\ud83d\\ude00"}',
    ];
    for (const text of kept) expect(wellFormedJson(text)).toBe(text);
    // Half a pair after an escaped backslash is still alone.
    expect(wellFormedJson('{"a":"\\\\\\ud800"}')).toBe('{"a":"\\\\\\ufffd"}');
  });
});
