// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NamedTotal } from '../lib/series';
import { captureDownloads, renderWithApp } from '../test/render';
import type { Column } from './DataTable';
import { BreakdownWidget, TableWidget } from './TableWidget';

const LANGS: NamedTotal[] = [
  { name: 'Go', value: 120, share: 0.006 },
  { name: 'Rust', value: 20_000, share: 0.9934 },
  { name: 'Ada', value: 5, share: 0.0006 },
];

function renderBreakdown(url = '/', rows: NamedTotal[] = LANGS) {
  return renderWithApp(
    <BreakdownWidget
      id="lang"
      title="Languages"
      nameHeader="Language"
      valueHeader="Files"
      filename="languages"
      query={{ data: rows }}
    />,
    { url },
  );
}

const table = () => screen.getByRole('table', { name: 'Languages' });
/** The first cell of each body row, top to bottom. */
const firstColumn = (t: HTMLElement) =>
  within(t)
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);
const header = (t: HTMLElement, name: string) => within(t).getByRole('columnheader', { name: new RegExp(`^${name}`) });
const sortButton = (t: HTMLElement, name: string) => within(header(t, name)).getByRole('button');

describe('BreakdownWidget / DataTable', () => {
  it('shows its rows in the default order (largest first) with aria-sort and a clean URL', () => {
    const r = renderBreakdown();
    const t = table();
    expect(firstColumn(t)).toEqual(['Rust', 'Go', 'Ada']);
    expect(header(t, 'Files').getAttribute('aria-sort')).toBe('descending');
    expect(header(t, 'Language').getAttribute('aria-sort')).toBe('none');
    // Numbers in one unit per column, with the exact value on hover; shares as percentages.
    const rust = within(t).getAllByRole('row')[1]!;
    expect(within(rust).getByText('20,000').getAttribute('title')).toBe('20,000');
    expect(within(rust).getByText('99.3%')).toBeTruthy();
    expect(r.params().has('langSort')).toBe(false);
  });

  it('sorts by a text column ascending on the first click, descending on the second, in the URL', () => {
    const r = renderBreakdown('/tools?start=2026-05-01&end=2026-05-31');
    fireEvent.click(sortButton(table(), 'Language'));
    expect(firstColumn(table())).toEqual(['Ada', 'Go', 'Rust']);
    expect(header(table(), 'Language').getAttribute('aria-sort')).toBe('ascending');
    expect(header(table(), 'Files').getAttribute('aria-sort')).toBe('none');
    expect(r.params().get('langSort')).toBe('name:asc');
    // The other parameters stay, and the page does not change.
    expect(r.location().pathname).toBe('/tools');
    expect(r.params().get('start')).toBe('2026-05-01');

    fireEvent.click(sortButton(table(), 'Language'));
    expect(firstColumn(table())).toEqual(['Rust', 'Go', 'Ada']);
    expect(header(table(), 'Language').getAttribute('aria-sort')).toBe('descending');
    expect(r.params().get('langSort')).toBe('name:desc');
  });

  it('sorts a numeric column largest first on the first click; back to the default clears the URL', () => {
    const r = renderBreakdown('/?langSort=name:asc');
    expect(firstColumn(table())).toEqual(['Ada', 'Go', 'Rust']);
    fireEvent.click(sortButton(table(), 'Share'));
    expect(firstColumn(table())).toEqual(['Rust', 'Go', 'Ada']);
    expect(r.params().get('langSort')).toBe('share:desc');
    fireEvent.click(sortButton(table(), 'Share'));
    expect(firstColumn(table())).toEqual(['Ada', 'Go', 'Rust']);
    expect(r.params().get('langSort')).toBe('share:asc');

    fireEvent.click(sortButton(table(), 'Files'));
    // value:desc is the default: the parameter goes away.
    expect(r.params().has('langSort')).toBe(false);
    expect(firstColumn(table())).toEqual(['Rust', 'Go', 'Ada']);
  });

  it('takes its sort from the URL', () => {
    renderBreakdown('/?langSort=value:asc');
    expect(firstColumn(table())).toEqual(['Ada', 'Go', 'Rust']);
    expect(header(table(), 'Files').getAttribute('aria-sort')).toBe('ascending');
  });

  it('falls back to the default sort for a malformed parameter', () => {
    renderBreakdown('/?langSort=value;drop');
    expect(firstColumn(table())).toEqual(['Rust', 'Go', 'Ada']);
    expect(header(table(), 'Files').getAttribute('aria-sort')).toBe('descending');
  });

  it('shows its empty text and no table for no rows', () => {
    renderBreakdown('/', []);
    expect(screen.getByText('None in this range.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('downloads a CSV of its columns by id and its rows with exact values', async () => {
    const downloads = captureDownloads();
    renderBreakdown();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Languages' }));
    expect(downloads.files.map((f) => f.name)).toEqual(['languages.csv']);
    const lines = (await downloads.text()).split('\r\n');
    expect(lines[0]).toBe('name,value,share');
    expect(lines).toContain('Rust,20000,0.9934');
    expect(lines).toContain('Ada,5,0.0006');
    expect(lines).toHaveLength(LANGS.length + 2); // header, rows, and the empty string after the last CRLF
  });

  it('downloads the rows in the order the table shows them', async () => {
    const downloads = captureDownloads();
    renderBreakdown('/?langSort=name:asc');
    expect(firstColumn(table())).toEqual(['Ada', 'Go', 'Rust']);
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Languages' }));
    const names = (await downloads.text())
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[0]);
    expect(names).toEqual(['Ada', 'Go', 'Rust']);
  });
});

type Repo = { repo: string; score: number | null };
const REPO_COLUMNS: Column<Repo>[] = [
  { id: 'repo', header: 'Repository', value: (r) => r.repo },
  { id: 'score', header: 'Score', value: (r) => r.score, numeric: true },
];

describe('TableWidget', () => {
  it('puts empty cells last in either direction, shown as a dash', () => {
    const rows: Repo[] = [
      { repo: 'b', score: 2 },
      { repo: 'none', score: null },
      { repo: 'a', score: 7 },
    ];
    const r = renderWithApp(
      <TableWidget
        id="repos"
        title="Repositories"
        columns={REPO_COLUMNS}
        rowKey={(x) => x.repo}
        defaultSort={{ column: 'score', dir: 'desc' }}
        query={{ data: rows }}
        filename="repos"
      />,
    );
    const t = () => screen.getByRole('table', { name: 'Repositories' });
    expect(firstColumn(t())).toEqual(['a', 'b', 'none']);
    expect(within(within(t()).getAllByRole('row')[3]!).getByText('–')).toBeTruthy();
    fireEvent.click(within(within(t()).getByRole('columnheader', { name: /^Score/ })).getByRole('button'));
    expect(r.params().get('reposSort')).toBe('score:asc');
    expect(firstColumn(t())).toEqual(['b', 'a', 'none']);
  });

  it('shows placeholder rows with the columns they were shown with, until the new answer brings its own', () => {
    const rows: Repo[] = [{ repo: 'a', score: 7 }];
    const renamed: Column<Repo>[] = [{ ...REPO_COLUMNS[0]!, header: 'Repo of the team' }, REPO_COLUMNS[1]!];
    const widget = (query: { data: Repo[]; isPlaceholderData: boolean }, columns: Column<Repo>[]) => (
      <TableWidget
        id="repos"
        title="Repositories"
        columns={columns}
        rowKey={(x) => x.repo}
        defaultSort={{ column: 'score', dir: 'desc' }}
        query={query}
        filename="repos"
      />
    );
    const heads = () =>
      within(screen.getByRole('table', { name: 'Repositories' }))
        .getAllByRole('columnheader')
        .map((h) => h.textContent);
    const r = renderWithApp(widget({ data: rows, isPlaceholderData: false }, REPO_COLUMNS));
    expect(heads()).toEqual(['Repository↕', 'Score▼']);
    // A new URL's columns while the previous answer stands in, dimmed: the rows are shown as they were.
    r.rerender(widget({ data: rows, isPlaceholderData: true }, renamed));
    expect(heads()).toEqual(['Repository↕', 'Score▼']);
    expect(screen.getByRole('table').closest('[aria-busy]')?.getAttribute('aria-busy')).toBe('true');
    // The new answer: its rows with the new columns.
    r.rerender(widget({ data: [{ repo: 'b', score: 1 }], isPlaceholderData: false }, renamed));
    expect(heads()).toEqual(['Repo of the team↕', 'Score▼']);
    expect(firstColumn(screen.getByRole('table'))).toEqual(['b']);
    // New columns for the rows already shown, with no placeholder: shown at once.
    r.rerender(widget({ data: [{ repo: 'b', score: 1 }], isPlaceholderData: false }, REPO_COLUMNS));
    expect(heads()).toEqual(['Repository↕', 'Score▼']);
  });
});
