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
    expect(within(add).getByRole('status').textContent).toMatch(/daily charts of Engineering\/Platform\/Infra/);
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
});
