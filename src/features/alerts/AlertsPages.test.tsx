// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Alert, AlertPreview, AlertRule, CheckResult } from '../../api/alerts';
import { TEAMS_ANSWER } from '../../test/analytics-fixtures';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import AlertRulesPage from './AlertRulesPage';
import AlertsPage from './AlertsPage';

const WITH_STORE = { ...TEST_CONFIG, teams: true };
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const alert = (over: Partial<Alert>): Alert => ({
  id: 'a1',
  ruleId: 'r1',
  kind: 'budget-spent',
  scope: 'Engineering',
  key: '',
  summary: 'Engineering has spent 85 % of its monthly budget',
  link: '/teams/Engineering',
  openedDay: '2026-05-30',
  openedAt: '2026-05-31T00:20:00.000Z',
  resolvedAt: null,
  acknowledgedBy: null,
  acknowledgedAt: null,
  posted: true,
  ...over,
});

/** The server: the alerts and rules in force, and every write recorded (answered by `write`). */
function stubServer(o: {
  alerts?: { open: Alert[]; past: Alert[]; webhook?: boolean };
  rules?: AlertRule[];
  /** The preview's answers, one per ask (the last one repeated). */
  previews?: AlertPreview[];
  me?: unknown;
  write?: (method: string, path: string, body: unknown) => Response;
}) {
  const writes: { method: string; path: string; body: unknown }[] = [];
  let previewed = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://dashboard.test');
      const method = init?.method ?? 'GET';
      if (method !== 'GET') {
        const body = init?.body ? JSON.parse(String(init.body)) : undefined;
        writes.push({ method, path: url.pathname, body });
        return o.write!(method, url.pathname, body);
      }
      if (url.pathname === '/api/alerts') return json(o.alerts ?? { open: [], past: [] });
      if (url.pathname === '/api/alert-rules') return json({ rules: o.rules ?? [] });
      if (url.pathname === '/api/alerts/preview' && o.previews)
        return json(o.previews[Math.min(previewed++, o.previews.length - 1)]);
      if (url.pathname === '/api/teams') return json(TEAMS_ANSWER);
      if (url.pathname === '/api/me') return json(o.me);
      if (url.pathname === '/api/sync') return json({ store: 'sqlite', stored: { users: { last: '2026-05-31' } } });
      return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
    }),
  );
  return writes;
}

afterEach(() => vi.unstubAllGlobals());

describe('AlertsPage', () => {
  it('lists the open alerts, then the past ones, each linking to its page; Acknowledge posts', async () => {
    const writes = stubServer({
      alerts: {
        open: [alert({})],
        past: [
          alert({ id: 'a0', summary: 'Sales has spent 90 %', scope: 'Sales', resolvedAt: '2026-05-01T00:20:00Z' }),
        ],
      },
      write: () => json(alert({ acknowledgedAt: '2026-05-31T09:00:00Z', acknowledgedBy: 'x@acme.example' })),
    });
    renderWithApp(<AlertsPage />, { url: '/alerts', config: WITH_STORE });
    const open = await screen.findByRole('region', { name: 'Open alerts' });
    const link = await within(open).findByRole('link', { name: 'Engineering has spent 85 % of its monthly budget' });
    expect(link.getAttribute('href')).toBe('/teams/Engineering');
    expect(open.textContent).toContain('Budget share passed · Engineering · opened May 31 00:20 UTC');
    const past = screen.getByRole('region', { name: 'Past alerts' });
    expect(within(past).getByRole('link', { name: 'Sales has spent 90 %' })).toBeTruthy();
    expect(within(past).queryByRole('button')).toBeNull();
    fireEvent.click(within(open).getByRole('button', { name: /^Acknowledge: Engineering/ }));
    await waitFor(() => expect(writes).toEqual([{ method: 'POST', path: '/api/alerts/a1/ack', body: undefined }]));
    expect(await screen.findByText('Newest day stored')).toBeTruthy();
  });
});

describe('AlertsPage links', () => {
  it('opens an alert over the days it speaks of, whatever the reader’s range; the rules keep the reader’s', async () => {
    stubServer({
      alerts: { open: [alert({ link: '/teams/Engineering?start=2026-05-01&end=2026-05-30' })], past: [] },
    });
    renderWithApp(<AlertsPage />, { url: '/alerts?start=2026-04-01&end=2026-04-10', config: WITH_STORE });
    const open = await screen.findByRole('region', { name: 'Open alerts' });
    const link = await within(open).findByRole('link', { name: /^Engineering has spent/ });
    expect(link.getAttribute('href')).toBe('/teams/Engineering?start=2026-05-01&end=2026-05-30');
    expect(screen.getByRole('link', { name: 'Alert rules' }).getAttribute('href')).toBe(
      '/settings/alerts?start=2026-04-01&end=2026-04-10',
    );
  });
});

describe('AlertsPage without a webhook', () => {
  it('says why an open alert is not posted', async () => {
    stubServer({ alerts: { open: [alert({ posted: false })], past: [], webhook: false } });
    renderWithApp(<AlertsPage />, { url: '/alerts', config: WITH_STORE });
    const open = await screen.findByRole('region', { name: 'Open alerts' });
    await within(open).findByRole('link', { name: 'Engineering has spent 85 % of its monthly budget' });
    expect(open.textContent).toContain('not posted: no alerts webhook is set (ALERT_WEBHOOK_URL)');
  });
});

describe('AlertRulesPage', () => {
  it('says what is wrong before sending, sends the rule, and shows the server’s refusal in its words', async () => {
    const writes = stubServer({
      write: (_m, _p, body) =>
        (body as { threshold: number }).threshold === 95
          ? json({ title: 'Bad Request', detail: 'The organization has a rule of that kind already.' }, 400)
          : json({}, 201),
    });
    renderWithApp(<AlertRulesPage />, { url: '/settings/alerts', config: WITH_STORE });
    fireEvent.click(await screen.findByRole('button', { name: 'Add a rule' }));
    const form = screen.getByRole('form', { name: 'Add a rule' });
    // Every scope for an admin (no sign-in): the organization and each team.
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Engineering/Platform/Infra' })).toBeTruthy());
    const n = within(form).getByRole('spinbutton', { name: 'N: percent of the budget' });
    fireEvent.change(n, { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add the rule' }));
    expect(within(form).getByRole('alert').textContent).toBe('Percent of the budget must be a number from 1 to 1000.');
    expect(writes).toEqual([]);
    fireEvent.change(n, { target: { value: '95' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add the rule' }));
    await within(form).findByText('The organization has a rule of that kind already.');
    expect(writes).toEqual([
      {
        method: 'POST',
        path: '/api/alert-rules',
        body: { kind: 'budget-spent', scope: '', threshold: 95, enabled: true },
      },
    ]);
    // A rule without a threshold; "no data" is the organization's only.
    fireEvent.change(within(form).getByRole('combobox', { name: 'When' }), { target: { value: 'no-data' } });
    expect(within(form).queryAllByRole('option', { name: /Engineering/ })).toHaveLength(0);
  });

  it('a manager adds a readiness rule for their team: the stale report’s N offered at its usual 30 days', async () => {
    const writes = stubServer({
      me: {
        email: 'm@acme.example',
        name: null,
        role: 'manager',
        teams: ['Engineering/Platform'],
        userId: null,
        orgView: true,
      },
      write: () => json({}, 201),
    });
    renderWithApp(<AlertRulesPage />, { url: '/settings/alerts', config: { ...WITH_STORE, signIn: true } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add a rule' }));
    const form = screen.getByRole('form', { name: 'Add a rule' });
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Engineering/Platform' })).toBeTruthy());
    fireEvent.change(within(form).getByRole('combobox', { name: 'When' }), { target: { value: 'readiness-stale' } });
    expect(within(form).getByRole<HTMLInputElement>('spinbutton', { name: 'N: days since the report' }).value).toBe(
      '30',
    );
    fireEvent.change(within(form).getByRole('combobox', { name: 'For' }), {
      target: { value: 'Engineering/Platform' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add the rule' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          method: 'POST',
          path: '/api/alert-rules',
          body: { kind: 'readiness-stale', scope: 'Engineering/Platform', threshold: 30, enabled: true },
        },
      ]),
    );
    // The two other readiness kinds take no N.
    fireEvent.click(await screen.findByRole('button', { name: 'Add a rule' }));
    const next = screen.getByRole('form', { name: 'Add a rule' });
    fireEvent.change(within(next).getByRole('combobox', { name: 'When' }), { target: { value: 'criterion-failing' } });
    expect(within(next).queryByRole('spinbutton')).toBeNull();
  });

  it('offers a manager their teams only, and edits and removes a rule', async () => {
    const rule: AlertRule = {
      id: 'r9',
      kind: 'active-drop',
      scope: 'Engineering/Platform',
      threshold: 30,
      enabled: true,
      createdBy: null,
    };
    const writes = stubServer({
      rules: [rule],
      me: {
        email: 'm@acme.example',
        name: null,
        role: 'manager',
        teams: ['Engineering/Platform'],
        userId: null,
        orgView: true,
      },
      write: (m) => (m === 'DELETE' ? new Response(null, { status: 204 }) : json({ ...rule, threshold: 50 })),
    });
    renderWithApp(<AlertRulesPage />, { url: '/settings/alerts', config: { ...WITH_STORE, signIn: true } });
    expect(await screen.findByText('Active people fall 30 % week over week')).toBeTruthy();
    fireEvent.click(
      screen.getByRole('button', { name: 'Edit: Active people fall 30 % week over week, Engineering/Platform' }),
    );
    const form = screen.getByRole('form', { name: 'Edit the rule' });
    const scopes = within(form)
      .getAllByRole('option')
      .filter((o) => o.parentElement === within(form).getByRole('combobox', { name: 'For' }))
      .map((o) => o.textContent);
    expect(scopes).toEqual(['Engineering/Platform', 'Engineering/Platform/Infra']);
    fireEvent.change(within(form).getByRole('spinbutton'), { target: { value: '50' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save the rule' }));
    await waitFor(() => expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual(['PUT /api/alert-rules/r9']));
    expect(writes[0]!.body).toEqual({
      kind: 'active-drop',
      scope: 'Engineering/Platform',
      threshold: 50,
      enabled: true,
    });
    fireEvent.click(screen.getByRole('button', { name: /^Remove: Active people fall/ }));
    await waitFor(() => expect(writes.map((w) => w.method)).toEqual(['PUT', 'DELETE']));
  });

  it('shows what each rule would open now, then checks now and says what opened', async () => {
    const rules: AlertRule[] = [
      { id: 'r1', kind: 'budget-spent', scope: 'Engineering', threshold: 80, enabled: true, createdBy: null },
      { id: 'r2', kind: 'no-data', scope: '', threshold: 3, enabled: true, createdBy: null },
      { id: 'r3', kind: 'active-drop', scope: 'Sales', threshold: 30, enabled: true, createdBy: null },
    ];
    const summary = 'Engineering has spent 103 % of its monthly budget: $1,030 of $1,000 to May 31, 2026.';
    const holding = {
      kind: 'budget-spent' as const,
      scope: 'Engineering',
      key: '',
      summary,
      link: '/teams/Engineering?start=2026-05-01&end=2026-05-31',
    };
    const before: AlertPreview = {
      day: '2026-05-31',
      webhook: true,
      rules: [
        { ruleId: 'r1', known: true, holding: [{ ...holding, openId: null }], resolving: [] },
        { ruleId: 'r2', known: true, holding: [], resolving: [] },
        { ruleId: 'r3', known: false, holding: [], resolving: [] },
      ],
    };
    const after: AlertPreview = {
      ...before,
      rules: [{ ...before.rules[0]!, holding: [{ ...holding, openId: 'a1' }] }, ...before.rules.slice(1)],
    };
    const checked: CheckResult = {
      day: '2026-05-31',
      opened: [holding],
      resolved: [],
      posted: 1,
      unposted: 0,
      withheld: 0,
    };
    const writes = stubServer({ rules, previews: [before, after], write: () => json(checked) });
    renderWithApp(<AlertRulesPage />, { url: '/settings/alerts?start=2026-05-01&end=2026-05-20', config: WITH_STORE });
    const item = (text: string) => screen.getByText(text).closest('li')!;
    await screen.findByText('Now: what each rule would open or resolve if checked on the figures to May 31, 2026.');
    const breached = item('Month to date passes 80 % of the budget');
    expect(breached.textContent).toContain(`Would open${summary}`);
    // The alert's own link: the team's page over the month the budget speaks of.
    expect(within(breached).getByRole('link', { name: summary }).getAttribute('href')).toBe(
      '/teams/Engineering?start=2026-05-01&end=2026-05-31',
    );
    expect(item('No data synced for 3 days').textContent).toContain('Nothing to alert on now.');
    expect(item('Active people fall 30 % week over week').textContent).toContain(
      'Its figures cannot be read now: a check leaves its alerts as they are.',
    );
    expect(screen.getByText(/^Check now opens and resolves these alerts and posts the new ones/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe(
      'Checked on the figures to May 31, 2026: 1 alert opened, no alerts resolved, 1 posted to the alerts webhook. See the alerts',
    );
    expect(within(status).getByRole('link', { name: 'See the alerts' }).getAttribute('href')).toBe(
      '/alerts?start=2026-05-01&end=2026-05-20',
    );
    expect(writes).toEqual([{ method: 'POST', path: '/api/alerts/check', body: undefined }]);
    // The preview is asked again: the alert is open now.
    await waitFor(() =>
      expect(item('Month to date passes 80 % of the budget').textContent).toContain(`Open${summary}`),
    );
  });

  it('says why the check was refused, in the server’s words', async () => {
    stubServer({
      rules: [{ id: 'r1', kind: 'budget-spent', scope: '', threshold: 80, enabled: true, createdBy: null }],
      previews: [
        { day: '2026-05-31', webhook: false, rules: [{ ruleId: 'r1', known: true, holding: [], resolving: [] }] },
      ],
      write: () =>
        json({ title: 'Forbidden', detail: 'The alerts check can be run only from the machine itself.' }, 403),
    });
    renderWithApp(<AlertRulesPage />, { url: '/settings/alerts', config: WITH_STORE });
    await screen.findByText('Nothing to alert on now.');
    // Without a webhook, nothing is said of posting.
    expect(screen.getByText('Check now opens and resolves these alerts, as the daily check does.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The alerts check can be run only from the machine itself.',
    );
  });
});
