import { describe, expect, it } from 'vitest';
import type { Mapping } from '../teams/mapping';
import type { FigureAnswer, FigureQuestion, FiguresRunner } from './figures';
import { keptAnswers } from './kept';

const range = { start: '2026-03-01', end: '2026-03-31' };
const mapping = { teams: ['Eng'] } as unknown as Mapping;

/** A runner that counts its asks and answers each with its number; a copy whose generation the test moves. */
function setup() {
  const asked: FigureQuestion<'active'>[] = [];
  const caught: unknown[] = [];
  let generation = 1;
  let fail = false;
  const runner = {
    ask: async (q: FigureQuestion<'active'>) => {
      asked.push(q);
      await Promise.resolve();
      if (fail) throw new Error('the engine failed');
      return { range: q.range, previous: null, rows: [{ key: '', current: { active: asked.length } }] };
    },
    memberCounts: async () => new Map(),
    shown: async () => new Set<string>(),
  } as unknown as FiguresRunner;
  const copy = {
    catchUp: async (r?: unknown) => {
      caught.push(r);
      return 0;
    },
    generation: () => generation,
  };
  const kept = keptAnswers(runner, copy, 3);
  const q = (o: Partial<FigureQuestion<'active'>> = {}): FigureQuestion<'active'> => ({
    mapping,
    measures: ['active'],
    range,
    by: 'team',
    scope: { people: null },
    ...o,
  });
  const value = async (p: Promise<FigureAnswer<'active'>>) => (await p).rows[0]!.current.active;
  return {
    kept,
    asked,
    caught,
    q,
    value,
    move: () => generation++,
    failing: (f: boolean) => (fail = f),
  };
}

describe('the runner’s kept answers', () => {
  it('answer a question asked again, or at once, from one ask while the copy and the mapping stay', async () => {
    const s = setup();
    const [x, y] = await Promise.all([s.value(s.kept.ask(s.q())), s.value(s.kept.ask(s.q()))]);
    expect([x, y, await s.value(s.kept.ask(s.q()))]).toEqual([1, 1, 1]);
    expect(s.asked).toHaveLength(1);
    // The days asked (with the period before: a whole month's is the month before) are caught up before the copy's generation is read.
    await s.kept.ask(s.q({ compare: true }));
    expect(s.caught.at(-1)).toEqual({ start: '2026-02-01', end: '2026-03-31' });
  });

  it('ask again when the copy changed, for another mapping, price list, scope, range or reader’s naming', async () => {
    const s = setup();
    await s.kept.ask(s.q());
    s.move();
    expect(await s.value(s.kept.ask(s.q()))).toBe(2);
    expect(await s.value(s.kept.ask(s.q({ mapping: { teams: ['Eng'] } as unknown as Mapping })))).toBe(3);
    expect(await s.value(s.kept.ask(s.q({ scope: { people: ['Eng'] } })))).toBe(4);
    expect(await s.value(s.kept.ask(s.q({ range: { start: '2026-03-02', end: '2026-03-31' } })))).toBe(5);
    const name = (id: string) => `p-${id}`;
    expect(await s.value(s.kept.ask(s.q({ scope: { people: null, privacy: { minGroup: 5, name } } })))).toBe(6);
    expect(await s.value(s.kept.ask(s.q({ scope: { people: null, privacy: { minGroup: 5, name } } })))).toBe(6);
    const other = (id: string) => `q-${id}`;
    expect(await s.value(s.kept.ask(s.q({ scope: { people: null, privacy: { minGroup: 5, name: other } } })))).toBe(7);
  });

  it('keep no failure, no answer by person, no intensity bands, and only the most recent few', async () => {
    const s = setup();
    s.failing(true);
    await expect(s.kept.ask(s.q())).rejects.toThrow('the engine failed');
    s.failing(false);
    expect(await s.value(s.kept.ask(s.q()))).toBe(2);
    await s.kept.ask(s.q({ by: 'person' }));
    await s.kept.ask(s.q({ by: 'person' }));
    expect(s.asked).toHaveLength(4);
    // Intensity bands: their thresholds may be refreshed while the data stay.
    const banded = s.q({ measures: ['intensityHeavy' as 'active'] });
    await s.kept.ask(banded);
    await s.kept.ask(banded);
    expect(s.asked).toHaveLength(6);
    // Three kept: the first question, then three others, pushes it out.
    for (const end of ['2026-03-28', '2026-03-29', '2026-03-30'])
      await s.kept.ask(s.q({ range: { start: '2026-03-01', end } }));
    expect(await s.value(s.kept.ask(s.q()))).toBe(10);
  });
});
