import { describe, expect, it } from 'vitest';
import { KNOWN_CRITERIA } from '../../api/criteria';
import { addDays, dayToMs } from '../../lib/dates';
import { goalProgress } from '../../lib/goals';
import type { CriterionScore } from '../../lib/readiness';
import { evaluate, holds, pseudonymous, type Figures, type OpenAlert, type RuleView, type ScopeFigures } from './rules';

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

  it('a goal whose projection misses its target: fires once, stays open, resolves back on course, fires again', () => {
    // A goal of 60 % by Jul 31 set in the week of Jun 1; each day's weeks end with the share given.
    const goal = (...shares: number[]) =>
      scoped('Eng/Web Apps', {
        goal: {
          kind: 'weekly-active',
          target: 0.6,
          by: '2026-07-31',
          progress: goalProgress({
            target: 0.6,
            startWeek: '2026-06-01',
            by: '2026-07-31',
            weeks: shares.map((value, i) => ({ week: addDays('2026-06-01', 7 * i), value })),
          }),
        },
      });
    const log = run(rule('goal-off-course', 'Eng/Web Apps', null), [
      goal(0.4, 0.45, 0.5), // rising 5 points a week: 75 % by the week of Jul 20, on course
      goal(0.4, 0.4, 0.4), // flat at 40 %: off course (fires)
      goal(0.4, 0.4, 0.4, 0.39), // still off course: stays open
      goal(0.4, 0.4, 0.4, 0.39, 0.6, 0.7), // back on course: resolves
      goal(0.4, 0.4, 0.4, 0.39, 0.6, 0.3, 0.2), // off course again: fires again
      goal(0.4, 0.4, 0.4, 0.39, 0.6, 0.3, 0.2, 0.9, 0.9), // on course: resolves
    ]);
    expectCycle(log);
    expect(log[1]!.summaries[0]).toBe(
      'Eng/Web Apps is off course for its goal of 60\u00a0% of members weekly active by Jul 31, 2026: 40\u00a0% in the week of Jun 15, 2026, projected 40\u00a0% by the week of Jul 20, 2026.',
    );
    expect(log[1]!.links).toEqual(['/teams/Eng/Web%20Apps']);
    // No goal: nothing; a goal that could not be read: the alert stays as it is.
    expect(run(rule('goal-off-course', 'Eng', null), [scoped('Eng', { goal: null })])[0]!.opened).toEqual([]);
    expect(
      evaluate([rule('goal-off-course', 'Eng', null)], { day: '2026-06-01', scopes: new Map() }, [
        { id: 'a1', ruleId: 'r1', scope: 'Eng', key: '' },
      ]),
    ).toEqual({ open: [], resolve: [] });
    // The week it is read in over, short of the target: missed, said so, and linked to the teams table for the organization.
    const missed = evaluate(
      [rule('goal-off-course', '', null)],
      {
        day: '2026-08-04',
        scopes: new Map([
          [
            '',
            {
              goal: {
                kind: 'weekly-active',
                target: 0.6,
                by: '2026-07-31',
                progress: {
                  status: 'missed',
                  projected: null,
                  current: { week: '2026-07-20', value: 0.555 },
                  targetWeek: '2026-07-20',
                },
              },
            },
          ],
        ]),
      },
      [],
    ).open;
    expect(missed.map((o) => [o.summary, o.link])).toEqual([
      [
        'The organization missed its goal of 60\u00a0% of members weekly active by Jul 31, 2026: 55.5\u00a0% in the week it is read in, that of Jul 20, 2026.',
        '/teams',
      ],
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

describe('the readiness rules on constructed report histories', () => {
  // Ten known criteria: the level is by how many pass (3 of 10 is level 2, 5 is level 3, 7 is level 4).
  const IDS = KNOWN_CRITERIA.slice(0, 10).map((c) => c.id);
  /** A report made at noon UTC on `day`, with the first `passing` criteria passing and the others failing. */
  const report = (day: string, passing: number, over: Record<string, CriterionScore> = {}) => ({
    createdAt: dayToMs(day) + 12 * 3_600_000,
    report: {
      ...Object.fromEntries(IDS.map((id, i) => [id, { numerator: i < passing ? 1 : 0, denominator: 1 }])),
      ...over,
    },
  });
  const KEY = 'github.com/acme/api';
  type Report = ReturnType<typeof report>;
  /** Each day's check sees the reports made by then (a history growing by one report on some days). */
  const history = (scope: string, reports: Report[][]) =>
    reports.map((rs) => scoped(scope, { repos: [{ key: KEY, reports: rs }] }));

  it('a level drop opens once, stays open while the level stays below, and resolves when a report is back', () => {
    const a = report('2026-05-01', 5); // level 3
    const b = report('2026-05-08', 3); // level 2
    const c = report('2026-05-15', 3); // level 2 still
    const d = report('2026-05-22', 5); // level 3 again
    const e = report('2026-05-29', 4); // level 3, under the same level: no drop
    const log = run(
      rule('readiness-drop', 'Eng', null),
      history('Eng', [[a], [a, b], [a, b], [a, b, c], [a, b, c, d], [a, b, c, d, e]]),
    );
    expect(log.map((l) => l.opened)).toEqual([[], [KEY], [], [], [], []]);
    expect(log.map((l) => l.resolved.length)).toEqual([0, 0, 0, 0, 1, 0]);
    expect(log.map((l) => l.open)).toEqual([0, 1, 1, 1, 0, 0]);
    expect(log[1]!.summaries[0]).toBe('acme/api fell from readiness level 3 to 2 in its report of May 8, 2026.');
    // The repository's scorecard, the rule's team kept.
    expect(log[1]!.links[0]).toBe('/readiness/github.com%2Facme%2Fapi?team=Eng');
  });

  it('a drop below a drop stays one alert; the organization’s rule links without a team', () => {
    const log = run(
      rule('readiness-drop', '', null),
      history('', [
        [report('2026-05-01', 7)],
        [report('2026-05-01', 7), report('2026-05-02', 5)],
        [report('2026-05-01', 7), report('2026-05-02', 5), report('2026-05-03', 1)],
      ]),
    );
    expect(log.map((l) => [l.opened.length, l.resolved.length, l.open])).toEqual([
      [0, 0, 0],
      [1, 0, 1],
      [0, 0, 1],
    ]);
    expect(log[1]!.links[0]).toBe('/readiness/github.com%2Facme%2Fapi');
  });

  it('a criterion newly failing opens once per criterion, stays while it fails, and resolves when it passes', () => {
    const [first, second] = IDS as [string, string];
    const fail = { numerator: 0, denominator: 1 };
    const pass = { numerator: 1, denominator: 1 };
    const skip = { numerator: null, denominator: 1 };
    const a = report('2026-05-01', 5, { [first]: pass, [second]: pass });
    const b = report('2026-05-08', 5, { [first]: fail, [second]: pass });
    // Still failing; the second criterion skipped (not evaluated: neither failing nor passing).
    const c = report('2026-05-15', 5, { [first]: fail, [second]: skip });
    // The second fails now: its last evaluation (May 8's, two reports back) passed, so it is newly failing too.
    const d = report('2026-05-22', 5, { [first]: fail, [second]: fail });
    const e = report('2026-05-29', 5, { [first]: pass, [second]: fail });
    const log = run(
      rule('criterion-failing', 'Eng', null),
      history('Eng', [[a], [a, b], [a, b], [a, b, c], [a, b, c, d], [a, b, c, d, e]]),
    );
    expect(log.map((l) => l.opened)).toEqual([[], [`${KEY}#${first}`], [], [], [`${KEY}#${second}`], []]);
    expect(log.map((l) => l.resolved.length)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(log.map((l) => l.open)).toEqual([0, 1, 1, 1, 2, 1]);
    // Named as the scorecard names it, with the day it started failing and the day it last passed.
    expect(log[1]!.summaries[0]).toBe(
      `acme/api: “${KNOWN_CRITERIA[0]!.name}” has failed since its report of May 8, 2026, after passing in the one of May 1, 2026.`,
    );
    expect(log[4]!.summaries[0]).toContain(
      'has failed since its report of May 22, 2026, after passing in the one of May 8, 2026.',
    );
    // The scorecard's failing criteria, the team kept.
    expect(log[1]!.links[0]).toBe('/readiness/github.com%2Facme%2Fapi?team=Eng&criteria=failed');
  });

  it('a criterion that has always failed, or that the latest report does not evaluate, is not newly failing', () => {
    const [first] = IDS as [string];
    const always = [report('2026-05-01', 0), report('2026-05-08', 0)];
    expect(
      holds(rule('criterion-failing', '', null), {
        day: '2026-06-01',
        scopes: new Map([['', { repos: [{ key: KEY, reports: always }] }]]),
      }),
    ).toEqual([]);
    const gone = [report('2026-05-01', 10), report('2026-05-08', 10, { [first]: { numerator: null, denominator: 1 } })];
    expect(
      holds(rule('criterion-failing', '', null), {
        day: '2026-06-01',
        scopes: new Map([['', { repos: [{ key: KEY, reports: gone }] }]]),
      }),
    ).toEqual([]);
    // A criterion outside the known list is named by its id made readable.
    const odd = [
      report('2026-05-01', 10, { agents_md_freshness: { numerator: 1, denominator: 1 } }),
      report('2026-05-08', 10, { agents_md_freshness: { numerator: 0, denominator: 2 } }),
    ];
    expect(
      holds(rule('criterion-failing', '', null), {
        day: '2026-06-01',
        scopes: new Map([['', { repos: [{ key: KEY, reports: odd }] }]]),
      })?.map((h) => h.summary),
    ).toEqual([
      'acme/api: “Agents md freshness” has failed since its report of May 8, 2026, after passing in the one of May 1, 2026.',
    ]);
  });

  it('a report older than N days opens once, stays while no newer report comes, and resolves when one does', () => {
    // Days are 2026-06-01 onwards, each checked twice (a check run again the same day opens nothing twice).
    const old = report('2026-05-01', 5);
    const fresh = report('2026-06-04', 5);
    const days = [[old], [old], [old, fresh], [old, fresh]];
    let open: OpenAlert[] = [];
    const log: [string[], number][] = [];
    const r = rule('readiness-stale', 'Eng', 30);
    for (const [i, reports] of days.entries())
      for (let twice = 0; twice < 2; twice++) {
        const day = addDays('2026-05-31', i);
        const e = evaluate([r], { day, scopes: new Map([['Eng', { repos: [{ key: KEY, reports }] }]]) }, open);
        open = [
          ...open.filter((a) => !e.resolve.includes(a.id)),
          ...e.open.map((o, j) => ({ id: `${day}-${j}`, ruleId: o.ruleId, scope: o.scope, key: o.key })),
        ];
        log.push([e.open.map((o) => o.summary), e.resolve.length]);
      }
    // On May 31 (the latest complete day; today June 1) the report of May 1 is 31 days old: older than 30.
    expect(log).toEqual([
      [['acme/api: its latest readiness report is 31 days old, from May 1, 2026.'], 0],
      [[], 0],
      [[], 0],
      [[], 0],
      [[], 1],
      [[], 0],
      [[], 0],
      [[], 0],
    ]);
    // Exactly N days old is not older than N.
    expect(
      holds(r, { day: '2026-05-30', scopes: new Map([['Eng', { repos: [{ key: KEY, reports: [old] }] }]]) }),
    ).toEqual([]);
  });

  it('lists the latest changes first, and the stalest reports first (the rules screen shows a rule’s first few)', () => {
    const repos = [
      { key: 'github.com/acme/a', reports: [report('2026-05-01', 5), report('2026-05-02', 3)] },
      { key: 'github.com/acme/b', reports: [report('2026-04-01', 5), report('2026-05-20', 3)] },
      { key: 'github.com/acme/c', reports: [report('2026-03-01', 5)] },
    ];
    const f: Figures = { day: '2026-05-31', scopes: new Map([['', { repos }]]) };
    const keys = (kind: RuleView['kind'], n: number | null) => holds(rule(kind, '', n), f)!.map((h) => h.key);
    expect(keys('readiness-drop', null)).toEqual(['github.com/acme/b', 'github.com/acme/a']);
    expect(keys('criterion-failing', null)).toEqual([
      `github.com/acme/b#${IDS[3]}`,
      `github.com/acme/b#${IDS[4]}`,
      `github.com/acme/a#${IDS[3]}`,
      `github.com/acme/a#${IDS[4]}`,
    ]);
    expect(keys('readiness-stale', 10)).toEqual(['github.com/acme/c', 'github.com/acme/a', 'github.com/acme/b']);
  });

  it('a scope whose reports could not be read keeps its alerts as they are', () => {
    for (const kind of ['readiness-drop', 'criterion-failing', 'readiness-stale'] as const)
      expect(holds(rule(kind, 'Eng', 30), { day: '2026-06-01', scopes: new Map([['Eng', {}]]) })).toBeUndefined();
  });
});
