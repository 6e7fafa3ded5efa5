/**
 * The figures runner's answers kept while what they come from stays the same: pages ask the same question through
 * different routes (the month's spend per team for the spend page and for the highlights' budgets, a week's active
 * people for the highlights and the alerts), often at once. An answer is kept for its question, the copy's
 * generation once the question's days are caught up, and the mapping, price list and privacy naming it was asked
 * with (by identity: a new mapping or price list is another object). A failure is not kept; people-by-person
 * answers (up to every person known) and intensity's are not kept at all.
 */
import { maxDay, minDay, previousPeriod } from '../../lib/dates';
import { isIntensity, type MeasureId } from '../../lib/measures';
import type { Analytics } from './engine';
import type { FigureAnswer, FigureQuestion, FiguresRunner } from './figures';

export function keptAnswers(
  runner: FiguresRunner,
  a: Pick<Analytics, 'catchUp' | 'generation'>,
  max = 64,
): FiguresRunner {
  const ids = new WeakMap<object, number>();
  let next = 0;
  const idOf = (o: object | null | undefined) => {
    if (!o) return 0;
    let id = ids.get(o);
    if (id === undefined) ids.set(o, (id = ++next));
    return id;
  };
  const kept = new Map<string, Promise<FigureAnswer<MeasureId>>>();

  async function ask<M extends MeasureId>(q: FigureQuestion<M>): Promise<FigureAnswer<M>> {
    // Intensity's answers hold thresholds an admin may refresh on any replica: the routes' answers keep them.
    if (q.by === 'person' || q.measures.some(isIntensity)) return runner.ask(q);
    const prev = q.compare === true ? previousPeriod(q.range) : q.compare || null;
    // The generation is read once the days asked are copied: an answer kept under it holds those days as they are.
    await a.catchUp(prev ? { start: minDay(prev.start, q.range.start), end: maxDay(prev.end, q.range.end) } : q.range);
    const { mapping, prices, scope, ...rest } = q;
    const { privacy, ...people } = scope;
    const key = JSON.stringify([
      a.generation(),
      idOf(mapping),
      idOf(prices),
      privacy ? [privacy.minGroup, idOf(privacy.name)] : null,
      people,
      rest,
    ]);
    const held = kept.get(key);
    if (held) {
      // The most recently asked are kept longest.
      kept.delete(key);
      kept.set(key, held);
      return held as Promise<FigureAnswer<M>>;
    }
    const answer = runner.ask(q);
    kept.set(key, answer as Promise<FigureAnswer<MeasureId>>);
    if (kept.size > max) kept.delete(kept.keys().next().value!);
    answer.catch(() => void (kept.get(key) === answer && kept.delete(key)));
    return answer;
  }

  return { ...runner, ask };
}
