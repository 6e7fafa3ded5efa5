import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './log';

const turn = () => new Promise((r) => setImmediate(r));

describe('the logger on standard output', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes the lines of one turn of the event loop together, in order, one JSON object a line', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (writes.push(String(s)), true));
    const log = createLogger();
    log.info('one', { n: 1 });
    log.info('two', { apiKey: 'sk-secret' });
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l) as unknown)).toEqual([
      { time: expect.any(String), level: 'info', msg: 'one', n: 1 },
      { time: expect.any(String), level: 'info', msg: 'two', apiKey: '[redacted]' },
    ]);
  });

  it('writes an error at once, after what came before it', () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (writes.push(String(s)), true));
    const log = createLogger();
    log.info('before');
    log.error('failed', { error: 'boom' });
    expect(
      writes
        .join('')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { msg: string }).msg),
    ).toEqual(['before', 'failed']);
  });
});
