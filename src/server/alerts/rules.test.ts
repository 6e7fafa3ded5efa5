import { describe, expect, it } from 'vitest';
import { addDays } from '../../lib/dates';
import { evaluate, pseudonymous, type Figures, type OpenAlert, type RuleView, type ScopeFigures } from './rules';

/**
 * Each rule over a constructed history of days: the alerts open stay as the evaluation leaves them (as the store
 * would), and each day's openings and resolutions are recorded.
 */
function run(rule: RuleView, days: ((day: string) => Omit<Figures, 'day'>)[]) {
  let open: OpenAlert[] = [];
  let n = 0;
  const log: { opened: string[]; resolved: string[]; open: number; summaries: string[]; links: string[] }[] = [];
  days.forEach((f, i) => {
    const day = addDays('2026-06-01', i);
    const e = evaluate([rule], { day, ...f(day) }, open);
    const opened = e.open.map((o) => ({ id: `a${++n}`, ruleId: o.ruleId, scope: o.scope, key: o.key }));
    open = [...open.filter((a) => !e.resolve.includes(a.id)), ...opened];
    log.push({
      opened: e.open.map((o) => o.key),
      resolved: e.resolve,
      open: open.length,
      summaries: e.open.map((o) => o.summary),
      links: e.open.map((o) => o.link),
    });
  });
  return log;
}

const scoped = (scope: string, s: ScopeFigures) => () => ({ scopes: new Map([[scope, s]]) });
const rule = (kind: RuleView['kind'], scope: string, threshold: number | null): RuleView => ({
  id: 'r1',
  kind,
  scope,
  threshold,
  enabled: true,
});

/** Opened on the days listed by their index, resolved on the others': fires once, stays, resolves, fires again. */
function expectCycle(log: ReturnType<typeof run>) {
  expect(log.map((l) => l.opened.length)).toEqual([0, 1, 0, 0, 1, 0]);
  expect(log.map((l) => l.resolved.length)).toEqual([0, 0, 0, 1, 0, 1]);
  expect(log.map((l) => l.open)).toEqual([0, 1, 1, 0, 1, 0]);
}

describe('alert rules on constructed histories', () => {
  it('month to date passes N % of the budget: fires once, stays open, resolves, fires again', () => {
    const b = (monthToDate: number) =>
      scoped('Eng', { budget: { budget: 1000, monthToDate, forecastHigh: null, currency: 'USD' } });
    // 79 % (under), 80 % (fires), 95 % (stays), a new month at 10 % (resolves), 85 %, 5 %.
    const log = run(rule('budget-spent', 'Eng', 80), [b(790), b(800), b(950), b(100), b(850), b(50)]);
    expectCycle(log);
    expect(log[1]!.summaries[0]).toBe('Eng has spent 80 % of its monthly budget: $800 of $1,000 to Jun 2, 2026.');
  });

  it('the forecast’s high end passes the budget', () => {
    const b = (high: number | null) =>
      scoped('', { budget: { budget: 1000, monthToDate: 100, forecastHigh: high, currency: 'EUR' } });
    const log = run(rule('budget-forecast', '', null), [b(1000), b(1200), b(1300), b(null), b(1001), b(900)]);
    expectCycle(log);
    expect(log[1]!.summaries[0]).toContain('forecast to month end reaches €1,200');
    expect(log[1]!.summaries[0]).toContain('may pass its monthly budget of €1,000');
  });

  it('a budget already passed is said to be passed, with what was spent so far', () => {
    const b = scoped('Eng', { budget: { budget: 800, monthToDate: 826, forecastHigh: 1400, currency: 'USD' } });
    const [day] = run(rule('budget-forecast', 'Eng', null), [b]);
    expect(day!.summaries[0]).toBe(
      'Eng has passed its monthly budget of $800: $826 so far to Jun 1, 2026, and the forecast to month end reaches $1,400.',
    );
    // Its link opens the team's page over the month so far.
    expect(day!.links[0]).toBe('/teams/Eng?start=2026-06-01&end=2026-06-01');
  });

  it('a scope without a budget never fires; one whose budgets cannot be read keeps its alert as it is', () => {
    const none = scoped('Eng', { budget: null });
    expect(run(rule('budget-spent', 'Eng', 50), [none, none]).map((l) => l.open)).toEqual([0, 0]);
    const b = scoped('Eng', { budget: { budget: 10, monthToDate: 10, forecastHigh: null, currency: 'USD' } });
    const unknown = () => ({ scopes: new Map() });
    const log = run(rule('budget-spent', 'Eng', 50), [b, unknown, unknown, none]);
    expect(log.map((l) => [l.opened.length, l.resolved.length, l.open])).toEqual([
      [1, 0, 1],
      [0, 0, 1],
      [0, 0, 1],
      [0, 1, 0],
    ]);
  });

  it('active people fall N % week over week', () => {
    const a = (before: number, now: number) => scoped('Eng/Web', { active: { before, now } });
    // 10 → 8 is −20 % (under 30), 10 → 7 is −30 % (fires), → 5 (stays), → 9 (resolves), 10 → 2, 0 → 0 (no week before).
    const log = run(rule('active-drop', 'Eng/Web', 30), [a(10, 8), a(10, 7), a(10, 5), a(10, 9), a(10, 2), a(0, 0)]);
    expectCycle(log);
    expect(log[1]!.summaries[0]).toBe(
      'Eng/Web: 7 people active May 27, 2026 – Jun 2, 2026, down 30 % from 10 the week before.',
    );
  });

  it('a person’s day far above their usual: one alert per person, each resolved on its own', () => {
    const spike = (userId: string) => ({ userId, email: `${userId}@x.test`, value: 900, median: 100 });
    const days = [[], ['u1'], ['u1', 'u2'], ['u2'], ['u1'], []].map((ids) => scoped('', { spikes: ids.map(spike) }));
    const log = run(rule('person-day', '', null), days);
    expect(log.map((l) => l.opened)).toEqual([[], ['u1'], ['u2'], [], ['u1'], []]);
    expect(log.map((l) => l.resolved.length)).toEqual([0, 0, 0, 1, 1, 1]);
    expect(log.map((l) => l.open)).toEqual([0, 1, 2, 1, 1, 0]);
    expect(log[1]!.summaries[0]).toBe(
      'u1@x.test used 9.0× their usual credits on Jun 2, 2026 (900 against a usual 100).',
    );
  });

  it('no data synced for N days', () => {
    // Day i is 2026-06-01 + i; the newest day stored lags it by 2, 3, 5, 0, 4 and 1 days.
    const lags = [2, 3, 5, 0, 4, 1];
    const days = lags.map((lag) => (day: string) => ({ scopes: new Map(), newestDataDay: addDays(day, -lag) }));
    const log = run(rule('no-data', '', 3), days);
    expectCycle(log);
    expect(log[1]!.summaries[0]).toBe('No data synced for 3 days: the newest day stored is May 30, 2026.');
    expect(run(rule('no-data', '', 3), [() => ({ scopes: new Map(), newestDataDay: null })])[0]!.summaries).toEqual([
      'No data has been synced from the service yet.',
    ]);
  });

  it('links each alert to the page that shows it', () => {
    const day = '2026-06-30';
    const f: Figures = {
      day,
      newestDataDay: '2026-06-01',
      scopes: new Map<string, ScopeFigures>([
        [
          '',
          { budget: { budget: 1, monthToDate: 2, forecastHigh: 3, currency: 'USD' }, active: { before: 4, now: 0 } },
        ],
        [
          'Eng/Web Apps',
          {
            budget: { budget: 1, monthToDate: 2, forecastHigh: 3, currency: 'USD' },
            active: { before: 4, now: 0 },
            spikes: [{ userId: 'u/1', email: null, value: 5, median: 0 }],
          },
        ],
      ]),
    };
    const rules: RuleView[] = [
      rule('budget-spent', '', 50),
      rule('budget-forecast', 'Eng/Web Apps', null),
      rule('active-drop', '', 50),
      rule('active-drop', 'Eng/Web Apps', 50),
      rule('person-day', 'Eng/Web Apps', null),
      rule('no-data', '', 2),
    ].map((r, i) => ({ ...r, id: `r${i}` }));
    expect(evaluate(rules, f, []).open.map((o) => o.link)).toEqual([
      // A budget alert opens its scope's page over the month so far: the organization's is the overview.
      '/?start=2026-06-01&end=2026-06-30',
      '/teams/Eng/Web%20Apps?start=2026-06-01&end=2026-06-30',
      // An active-drop alert opens its scope's page over the two weeks compared.
      '/?start=2026-06-17&end=2026-06-30',
      '/teams/Eng/Web%20Apps?start=2026-06-17&end=2026-06-30',
      // A person's day, over the four weeks it is compared with.
      '/users/u%2F1?start=2026-06-03&end=2026-06-30',
      '/alerts#sync',
    ]);
  });

  it('resolves the open alerts of a rule disabled, removed, or moved to another scope', () => {
    const f: Figures = { day: '2026-06-01', newestDataDay: null, scopes: new Map() };
    const open: OpenAlert[] = [
      { id: 'a', ruleId: 'gone', scope: '', key: '' },
      { id: 'b', ruleId: 'off', scope: '', key: '' },
      { id: 'c', ruleId: 'moved', scope: 'Old', key: '' },
      { id: 'd', ruleId: 'kept', scope: '', key: '' },
    ];
    const rules: RuleView[] = [
      { ...rule('no-data', '', 1), id: 'off', enabled: false },
      { ...rule('active-drop', 'New', 10), id: 'moved' },
      { ...rule('no-data', '', 1), id: 'kept' },
    ];
    const e = evaluate(rules, f, open);
    expect(e.resolve).toEqual(['a', 'b', 'c']);
    expect(e.open).toEqual([]);
  });
});

describe('a person-day alert in privacy mode', () => {
  const name = (id: string) => `Person ${id.length}`;
  it('names the person by the pseudonym given and links to the scope, not the person, over the same days', () => {
    const a = {
      kind: 'person-day',
      scope: 'Eng/Core team',
      key: 'u used 7',
      summary: 'u used 7 used 3.0× their usual credits on 2 June 2026 (900 against a usual 300).',
      link: '/users/u%20used%207?start=2026-05-06&end=2026-06-02',
    };
    expect(pseudonymous(a, name)).toEqual({
      kind: 'person-day',
      scope: 'Eng/Core team',
      key: 'Person 8',
      summary: 'Person 8 used 3.0× their usual credits on 2 June 2026 (900 against a usual 300).',
      link: '/teams/Eng/Core%20team?start=2026-05-06&end=2026-06-02',
    });
    expect(pseudonymous({ ...a, scope: '' }, name).link).toBe('/users?start=2026-05-06&end=2026-06-02');
  });
  it('leaves the other kinds as they are', () => {
    const a = {
      kind: 'budget-spent',
      scope: '',
      key: '',
      summary: 'The organization has spent 80 %…',
      link: '/settings/budgets',
    };
    expect(pseudonymous(a, name)).toBe(a);
  });
});
