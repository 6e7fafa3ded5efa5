import { describe, expect, it } from 'vitest';
import { RECONCILED } from '../../api/reconciliation';
import { reconcile, type DayValues } from './reconcile';

const values = (n: number): DayValues => Object.fromEntries(RECONCILED.map((m) => [m, n])) as DayValues;
const on = (day: string, n: number) => new Map([[day, values(n)]]);

describe('reconcile', () => {
  it('splits a synced day into the dashboard’s, the people outside it and what is left', () => {
    const [d] = reconcile({
      days: ['2026-04-01'],
      service: on('2026-04-01', 100),
      synced: new Set(['2026-04-01']),
      final: new Set(['2026-04-01']),
      everyone: on('2026-04-01', 97),
      counted: on('2026-04-01', 60),
    });
    expect(d).toMatchObject({ day: '2026-04-01', synced: true, final: true });
    expect(d!.figures.credits).toEqual({ service: 100, dashboard: 60, notSynced: 0, outside: 37, unexplained: 3 });
  });

  it('takes a day not synced as the whole difference', () => {
    const [d] = reconcile({
      days: ['2026-04-02'],
      service: on('2026-04-02', 40),
      synced: new Set(),
      final: new Set(),
      everyone: new Map(),
      counted: new Map(),
    });
    expect(d).toMatchObject({ synced: false, final: false });
    expect(d!.figures.active).toEqual({ service: 40, dashboard: 0, notSynced: 40, outside: 0, unexplained: 0 });
  });

  it('leaves no difference where sums of fractions taken in another order differ by rounding only', () => {
    const [d] = reconcile({
      days: ['2026-04-03'],
      service: on('2026-04-03', 0.3),
      synced: new Set(['2026-04-03']),
      final: new Set(),
      everyone: on('2026-04-03', 0.1 + 0.2),
      counted: on('2026-04-03', 0.1 + 0.2),
    });
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(d!.figures.credits).toMatchObject({ outside: 0, unexplained: 0 });
  });

  it('gives a day the service has no row for as 0 from the service, the people’s sum unexplained', () => {
    const [d] = reconcile({
      days: ['2026-04-04'],
      service: new Map(),
      synced: new Set(['2026-04-04']),
      final: new Set(),
      everyone: on('2026-04-04', 5),
      counted: on('2026-04-04', 5),
    });
    expect(d!.figures.sessions).toEqual({ service: 0, dashboard: 5, notSynced: 0, outside: 0, unexplained: -5 });
  });
});
