// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Mark } from '../../api/marks';
import { TEAMS_ANSWER } from '../../test/analytics-fixtures';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import { json } from './fixtures';
import MarksPage from './MarksPage';

const STORED = { ...TEST_CONFIG, teams: true };

const mark = (id: string, day: string, team: string, text: string, source: Mark['source'] = 'user'): Mark => ({
  id,
  day,
  team,
  text,
  source,
  author: source === 'user' ? 'admin@acme.example' : null,
  updatedAt: null,
  editable: source === 'user' && team !== '',
});

const none = { week: '2026-05-04', weeks: 0, before: null, after: null, currency: null, figures: [] };
/** Each mark's figures before and after it, as the server gives them (server/marks/figures.ts). */
const FIGURES: Record<string, unknown> = {
  org: {
    id: 'org',
    day: '2026-05-04',
    team: '',
    week: '2026-05-04',
    weeks: 3,
    before: { start: '2026-04-13', end: '2026-05-03' },
    after: { start: '2026-05-11', end: '2026-05-31' },
    reason: null,
    currency: 'EUR',
    figures: [
      { measure: 'active', before: 120, after: 132, change: 0.1 },
      { measure: 'creditsPerPr', before: 20_000, after: 15_000, change: -0.25 },
      { measure: 'toolCallsPerTurn', before: 3.04, after: 3.5, change: 0.151 },
      { measure: 'creditsPerCommit', before: 900, after: null, change: null },
      { measure: 'spendPerPr', before: 1.5, after: 1.2, change: -0.2 },
      { measure: 'a figure of a newer server', before: 1, after: 2, change: 1 },
    ],
  },
  'prices:2026-05-10:0': {
    ...none,
    id: 'prices:2026-05-10:0',
    day: '2026-05-10',
    team: '',
    reason: 'Too recent to tell: the first whole week after it ends on May 24, 2026, and the data run to May 20, 2026.',
  },
};

/** The server: the tree, the marks, and the writes (each answered as the server does, and recorded). */
function stubServer(initial: Mark[]) {
  let marks = initial;
  const writes: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://dashboard.test');
      const method = init?.method ?? 'GET';
      if (url.pathname === '/api/teams') return json(TEAMS_ANSWER);
      if (url.pathname === '/api/marks/all' && method === 'GET') return json({ marks });
      const figures = /^\/api\/marks\/(.+)\/figures$/.exec(url.pathname);
      if (figures && method === 'GET') {
        const answer = FIGURES[decodeURIComponent(figures[1]!)];
        return answer ? json(answer) : json({ title: 'Forbidden', detail: 'Not yours to see.' }, 403);
      }
      const body = init?.body ? (JSON.parse(String(init.body)) as { day: string; team: string; text: string }) : null;
      writes.push({ method, path: url.pathname, body });
      if (method === 'POST') {
        if (body!.text.includes('refused')) return json({ title: 'Bad Request', detail: '"text" is refused.' }, 400);
        const m = mark(`new-${marks.length}`, body!.day, body!.team, body!.text);
        marks = [...marks, m];
        return json(m, 201);
      }
      const id = decodeURIComponent(url.pathname.slice('/api/marks/'.length));
      if (method === 'PUT') {
        marks = marks.map((m) => (m.id === id ? { ...m, ...body! } : m));
        return json(marks.find((m) => m.id === id));
      }
      if (method === 'DELETE') {
        marks = marks.filter((m) => m.id !== id);
        return json({ removed: id });
      }
      return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
    }),
  );
  return writes;
}

function renderAsManager() {
  const client = createTestQueryClient();
  client.setQueryData(['me'], {
    email: 'lead@acme.example',
    name: null,
    role: 'manager',
    teams: ['Engineering/Platform'],
    userId: null,
    orgView: true,
  });
  return renderWithApp(<MarksPage />, { url: '/settings/marks', client, config: { ...STORED, signIn: true } });
}

describe('MarksPage', () => {
  it('lets a manager add a mark for their teams only, and lists it', async () => {
    const writes = stubServer([
      mark('org', '2026-05-04', '', 'Rollout to every team'),
      mark('prices:2026-05-10:0', '2026-05-10', '', 'Price change: the default price is 6 EUR.', 'prices'),
    ]);
    renderAsManager();
    const add = await screen.findByRole('region', { name: 'Add a mark' }, { timeout: 5000 });
    const scope = within(add).getByRole('combobox', { name: 'For' });
    // Their team and its sub-team; never the organization or another team.
    await waitFor(() =>
      expect(
        within(scope)
          .getAllByRole('option')
          .map((o) => o.getAttribute('value')),
      ).toEqual(['Engineering/Platform', 'Engineering/Platform/Infra']),
    );
    expect(within(add).getByLabelText('Day (UTC)')).toHaveProperty('value', TEST_CONFIG.latestDay);
    fireEvent.change(within(add).getByLabelText('Day (UTC)'), { target: { value: '2026-05-12' } });
    fireEvent.change(scope, { target: { value: 'Engineering/Platform/Infra' } });
    fireEvent.change(within(add).getByRole('textbox', { name: 'Text' }), { target: { value: 'Infra training' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add mark' }));
    await screen.findByText('Infra training');
    expect(writes).toEqual([
      {
        method: 'POST',
        path: '/api/marks',
        body: { day: '2026-05-12', team: 'Engineering/Platform/Infra', text: 'Infra training' },
      },
    ]);
    expect(within(add).getByRole('status').textContent).toBe(
      'Added: it shows on the charts of Engineering/Platform/Infra.',
    );
    // The organization's mark and the price change are shown, not editable; the price change says why.
    expect(screen.queryByRole('button', { name: /^Edit the mark of May 4, 2026/ })).toBeNull();
    expect(screen.getByText(/Marked by the price list \(PRICES_FILE\)/)).toBeTruthy();
  });

  it('says why a mark was refused, and changes and removes an editable one', async () => {
    const writes = stubServer([mark('t1', '2026-05-06', 'Engineering/Platform', 'Old words')]);
    renderAsManager();
    const add = await screen.findByRole('region', { name: 'Add a mark' }, { timeout: 5000 });
    fireEvent.change(within(add).getByRole('textbox', { name: 'Text' }), { target: { value: 'to be refused' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add mark' }));
    expect((await within(add).findByRole('alert')).textContent).toBe('"text" is refused.');

    fireEvent.click(await screen.findByRole('button', { name: 'Edit the mark of May 6, 2026, Engineering/Platform' }));
    const form = screen.getByRole('form', { name: 'Change the mark of May 6, 2026, Engineering/Platform' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Text' }), { target: { value: 'New words' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('New words');
    expect(writes.at(-1)).toEqual({
      method: 'PUT',
      path: '/api/marks/t1',
      body: { day: '2026-05-06', team: 'Engineering/Platform', text: 'New words' },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Remove the mark of May 6, 2026, Engineering/Platform' }));
    await waitFor(() => expect(screen.queryByText('New words')).toBeNull());
    expect(writes.at(-1)).toEqual({ method: 'DELETE', path: '/api/marks/t1', body: null });
    expect(screen.getByText('No marks yet.')).toBeTruthy();
  });

  it('gives a mark’s figures before and after it when asked, or why there are none', async () => {
    stubServer([
      mark('org', '2026-05-04', '', 'Rollout to every team'),
      mark('prices:2026-05-10:0', '2026-05-10', '', 'Price change: the default price is 6 EUR.', 'prices'),
      mark('t1', '2026-05-06', 'Engineering', 'A parent team’s training'),
    ]);
    renderAsManager();
    const open = await screen.findByRole(
      'button',
      { name: 'Figures before and after the mark of May 4, 2026, Whole organization' },
      { timeout: 5000 },
    );
    expect(open.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
    const table = await screen.findByRole('table', {
      name: 'Figures of The organization before and after the mark of May 4, 2026',
    });
    expect(
      screen.getByText(/The organization’s figures over the 3 whole weeks before the week of May 4, 2026/).textContent,
    ).toBe(
      'The organization’s figures over the 3 whole weeks before the week of May 4, 2026 (Apr 13 – May 3, 2026) and the 3 whole weeks after it (May 11 – May 31, 2026); the week of the mark itself is left out.',
    );
    const rows = within(table)
      .getAllByRole('row')
      .map((r) =>
        within(r)
          .queryAllByRole('cell')
          .map((c) => c.textContent),
      );
    // Each figure as the dashboard writes its unit, its change coloured by its good way; a figure this page does not know left out.
    expect(rows.slice(1)).toEqual([
      ['120', '132', '▲ +10.0%'],
      ['20K', '15K', '▼ −25.0%'],
      ['3.0', '3.5', '▲ +15.1%'],
      ['900', '—none: nothing to divide by in these weeks', '—'],
      ['€1.50', '€1.20', '▼ −20.0%'],
    ]);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Active people (distinct over the weeks)',
      'Credits per pull request',
      'Tool calls per user turn',
      'Credits per commit',
      'Spend per pull request',
    ]);
    const change = (row: number) => within(within(table).getAllByRole('row')[row]!).getAllByRole('cell').at(-1)!;
    // Fewer credits per pull request is the good way; fewer active people would not be.
    expect(change(2).querySelector('span')!.className).toContain('text-success');
    expect(change(1).querySelector('span')!.className).toContain('text-success');
    expect(screen.getByText(/correlation over few points, not cause/)).toBeTruthy();

    // Too recent: the reason, no table.
    fireEvent.click(screen.getByRole('button', { name: /^Figures before and after the mark of May 10, 2026/ }));
    expect(
      (await screen.findByText(/^Too recent to tell: the first whole week after it ends on May 24, 2026/)).getAttribute(
        'role',
      ),
    ).toBe('status');
    // Not the reader's to see: the server's words.
    fireEvent.click(screen.getByRole('button', { name: /^Figures before and after the mark of May 6, 2026/ }));
    expect((await screen.findByText('Not yours to see.')).getAttribute('role')).toBe('alert');
  });
});
