// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Highlight, Highlights as Answer } from '../../api/insights';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import { Highlights } from './Highlights';

const item = (i: number, over: Partial<Highlight> = {}): Highlight => ({
  kind: 'spike',
  severity: 'warning',
  title: `Highlight ${i}`,
  detail: `Detail ${i}`,
  link: { path: `/users/u-${i}`, query: { start: '2026-05-01', end: '2026-05-28' } },
  ...over,
});

function stub(answer: Answer) {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://dashboard.test');
      asked.push(url);
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return asked;
}

const week = { start: '2026-05-22', end: '2026-05-28' };

describe('Highlights', () => {
  it('links each highlight to its page with its parameters, the most pressing five first, the rest on demand', async () => {
    const asked = stub({
      week,
      teams: ['Sales'],
      complete: true,
      highlights: [
        item(0, { kind: 'drop', link: { path: '/activity', query: { team: ['Sales', 'Data'], start: '2026-05-01' } } }),
        ...[1, 2, 3, 4, 5, 6].map((i) => item(i)),
      ],
      notes: ['3 people had too little history.'],
    });
    // The reader's range (May 10–31) holds the highlights' week: following one keeps it.
    renderWithApp(<Highlights teams={['Sales']} enabled />, {
      url: '/?start=2026-05-10&end=2026-05-31',
      config: { ...TEST_CONFIG, teams: true },
    });
    const first = await screen.findByRole('link', { name: 'Highlight 0' });
    expect(first.getAttribute('href')).toBe('/activity?team=Sales&team=Data&start=2026-05-10&end=2026-05-31');
    expect(screen.getByRole('link', { name: 'Highlight 1' }).getAttribute('href')).toBe(
      '/users/u-1?start=2026-05-10&end=2026-05-31',
    );
    expect(screen.queryByRole('link', { name: 'Highlight 5' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show 2 more' }));
    expect(screen.getByRole('link', { name: 'Highlight 6' })).toBeTruthy();
    expect(screen.getByText('3 people had too little history.')).toBeTruthy();
    expect(asked.map((u) => `${u.pathname}${u.search}`)).toEqual(['/api/highlights?team=Sales']);
  });

  it('keeps a link’s own range where the reader’s misses the week, or where the range defines a list', async () => {
    stub({
      week,
      teams: [],
      complete: true,
      highlights: [
        item(0),
        item(1, {
          kind: 'inactive',
          link: { path: '/users', query: { start: '2026-04-29', end: '2026-05-28', who: 'inactive' } },
        }),
        item(2, { kind: 'budget', link: { path: '/teams/Sales', query: {} } }),
      ],
      notes: [],
    });
    renderWithApp(<Highlights teams={[]} enabled />, { url: '/?start=2026-04-01&end=2026-04-30', config: TEST_CONFIG });
    // April does not hold the week of May 22: the person's page opens on the highlight's own range.
    expect((await screen.findByRole('link', { name: 'Highlight 0' })).getAttribute('href')).toBe(
      '/users/u-0?start=2026-05-01&end=2026-05-28',
    );
    expect(screen.getByRole('link', { name: 'Highlight 1' }).getAttribute('href')).toBe(
      '/users?start=2026-04-29&end=2026-05-28&who=inactive',
    );
    // A link without a range of its own carries the reader's.
    expect(screen.getByRole('link', { name: 'Highlight 2' }).getAttribute('href')).toBe(
      '/teams/Sales?start=2026-04-01&end=2026-04-30',
    );
  });

  it('says so quietly when nothing stands out', async () => {
    stub({ week, teams: [], complete: true, highlights: [], notes: [] });
    renderWithApp(<Highlights teams={[]} enabled />, { config: { ...TEST_CONFIG, teams: true } });
    expect(await screen.findByText('Nothing stands out this week.')).toBeTruthy();
  });

  it('says how far the store is while it takes in the weeks the highlights read, and never “nothing stands out”', async () => {
    stub({ week, teams: [], complete: false, highlights: [], notes: ['12 of 35 days so far.'] });
    renderWithApp(<Highlights teams={[]} enabled />, { config: { ...TEST_CONFIG, teams: true } });
    expect(await screen.findByText('12 of 35 days so far.')).toBeTruthy();
    expect(screen.queryByText('Nothing stands out this week.')).toBeNull();
  });
});
