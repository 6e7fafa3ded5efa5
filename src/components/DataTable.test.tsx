// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatPercent } from '../lib/format';
import { moneyFormat } from '../lib/money';
import { renderWithApp } from '../test/render';
import { DataTable, type Column } from './DataTable';
import { fitWholeRows } from './TableFrame';

interface Row {
  name: string;
  people: number;
  share: number;
  spend: number;
  model: string;
}
const ROWS: Row[] = [
  { name: 'Platform', people: 12_800, share: 0.411, spend: 546, model: 'claude-sonnet-4-5-20250929' },
  { name: 'Apps', people: 8_800, share: 0.18, spend: 76.13, model: 'claude-haiku-4-5' },
  { name: 'Data', people: 540, share: 0.05, spend: 2.5, model: 'claude-opus-4-1' },
];
const COLUMNS: Column<Row>[] = [
  { id: 'name', header: 'Team', value: (r) => r.name },
  { id: 'people', header: 'People', value: (r) => r.people, numeric: true },
  { id: 'share', header: 'Share', value: (r) => r.share, numeric: true, format: formatPercent },
  { id: 'spend', header: 'Spend', value: (r) => r.spend, numeric: true, format: moneyFormat('USD') },
  { id: 'model', header: 'Main model', value: (r) => r.model },
];

function renderTable(url = '/') {
  return renderWithApp(
    <DataTable
      id="t"
      caption="Teams"
      columns={COLUMNS}
      rows={ROWS}
      rowKey={(r) => r.name}
      defaultSort={{ column: 'people', dir: 'desc' }}
    />,
    { url },
  );
}

const table = () => screen.getByRole('table', { name: 'Teams' });
const column = (index: number) =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[index]!);

afterEach(() => vi.restoreAllMocks());

describe('DataTable', () => {
  it('writes every cell of a column in one format, the exact value on hover', () => {
    renderTable();
    // One unit for the column: below a million, whole numbers in every cell, never "12.8K" above "540".
    expect(column(1).map((c) => c.textContent)).toEqual(['12,800', '8,800', '540']);
    expect(column(1).map((c) => c.firstElementChild!.getAttribute('title'))).toEqual(['12,800', '8,800', '540']);
    // One percentage has a decimal: all do.
    expect(column(2).map((c) => c.textContent)).toEqual(['41.1%', '18.0%', '5.0%']);
    expect(column(2)[1]!.firstElementChild!.getAttribute('title')).toBe('18%');
    // $546 needs no cents: no amount shows them; the cents on hover.
    expect(column(3).map((c) => c.textContent)).toEqual(['$546', '$76', '$3']);
    expect(column(3)[1]!.firstElementChild!.getAttribute('title')).toBe('$76.13');
  });

  it('holds the name column in place, and labels each cell for its phone card', () => {
    renderTable();
    const first = column(0)[0]!;
    expect(first.className).toMatch(/(^| )sticky( |$)/);
    expect(first.className).toContain('left-0');
    // On a phone the name heads the card; the figures read "label value", never cut.
    expect(first.className).toContain('max-sm:col-span-2');
    const people = column(1)[0]!;
    expect(people.getAttribute('data-label')).toBe('People');
    expect(people.className).toContain('max-sm:before:content-[attr(data-label)]');
    expect(people.className).not.toContain('max-sm:col-span-2');
    // Text may be long (a model's name): on a phone it takes the card's whole line and wraps there.
    expect(column(4)[0]!.className).toContain('max-sm:col-span-2');
    const nameHeader = within(table()).getByRole('columnheader', { name: /^Team/ });
    expect(nameHeader.className).toContain('sticky');
    expect(nameHeader.className).toContain('left-0');
    // The header row is for a desk; a phone sorts with the select above the cards.
    expect(nameHeader.closest('thead')!.className).toContain('max-sm:hidden');
  });

  it('sorts from the phone’s select and direction button, in the same URL parameter', () => {
    const r = renderTable();
    const select = screen.getByRole('combobox', { name: 'Sort Teams by' });
    expect((select as HTMLSelectElement).value).toBe('people');
    fireEvent.change(select, { target: { value: 'name' } });
    expect(r.params().get('tSort')).toBe('name:asc');
    expect(column(0).map((c) => c.textContent)).toEqual(['Apps', 'Data', 'Platform']);
    fireEvent.click(screen.getByRole('button', { name: 'Ascending: sort descending' }));
    expect(r.params().get('tSort')).toBe('name:desc');
    // A numeric column sorts largest first, as its header does.
    fireEvent.change(select, { target: { value: 'spend' } });
    expect(r.params().get('tSort')).toBe('spend:desc');
  });

  it('says when more columns lie to the side, and shows them on request', () => {
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(1600);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
    const scrollBy = vi.fn();
    HTMLElement.prototype.scrollBy = scrollBy;
    renderTable();
    const box = screen.getByLabelText('Teams, scrollable');
    // The frame's flag shows the fade at the right edge and the button above the table.
    expect(box.parentElement!.dataset.more).toBe('true');
    const more = screen.getByRole('button', { name: /More columns/ });
    expect(more.parentElement!.className).toContain('group-data-[more=true]:flex');
    fireEvent.click(more);
    expect(scrollBy).toHaveBeenCalledWith({ left: 420, behavior: 'smooth' });
    // Scrolled to the end: nothing more to the side.
    vi.spyOn(HTMLElement.prototype, 'scrollLeft', 'get').mockReturnValue(1000);
    fireEvent.scroll(box);
    expect(box.parentElement!.dataset.more).toBe('false');
  });

  it('shows no cue when every column fits', () => {
    renderTable();
    expect(screen.getByLabelText('Teams, scrollable').parentElement!.dataset.more).toBe('false');
  });
});

describe('fitWholeRows', () => {
  /** A box with a header 40 px high and rows 36 px high, laid out as a browser would. */
  function layout(rows: number) {
    const box = document.createElement('div');
    box.innerHTML = `<table><thead><tr><th>h</th></tr></thead><tbody>${'<tr><td>r</td></tr>'.repeat(rows)}</tbody></table>`;
    document.body.append(box);
    const table = box.querySelector('table')!;
    vi.spyOn(table, 'offsetHeight', 'get').mockReturnValue(40 + rows * 36);
    vi.spyOn(table.tHead!, 'offsetHeight', 'get').mockReturnValue(40);
    vi.spyOn(table, 'getBoundingClientRect').mockReturnValue({ top: 100 } as DOMRect);
    [...table.tBodies[0]!.rows].forEach((tr, i) =>
      vi.spyOn(tr, 'getBoundingClientRect').mockReturnValue({ bottom: 100 + 40 + (i + 1) * 36 } as DOMRect),
    );
    return box;
  }

  it('rounds the box down to the last whole row', () => {
    const box = layout(30);
    fitWholeRows(box, '448px');
    // 40 + 11 × 36 = 436: a twelfth row would end at 472, past 448.
    expect(box.style.maxHeight).toBe('436px');
  });

  it('leaves a table that fits as it is', () => {
    const box = layout(5);
    fitWholeRows(box, '448px');
    expect(box.style.maxHeight).toBe('448px');
  });
});

describe('DataTable on a phone', () => {
  const many = Array.from({ length: 25 }, (_, i) => ({ ...ROWS[0]!, name: `Team ${i + 1}`, people: 100 - i }));
  const renderMany = (rows: Row[]) =>
    renderWithApp(
      <DataTable
        id="t"
        caption="Teams"
        columns={COLUMNS}
        rows={rows}
        rowKey={(r) => r.name}
        defaultSort={{ column: 'people', dir: 'desc' }}
      />,
    );
  /** The rows a phone shows: those not hidden below `sm` (jsdom applies no media query, so by their class). */
  const phoneRows = () =>
    within(table())
      .getAllByRole('row')
      .slice(1)
      .filter((r) => !r.className.includes('max-sm:hidden'))
      .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

  it('shows the first ten rows and a “Show more” in the page, with no box of its own; a desk draws every row', () => {
    renderMany(many);
    expect(phoneRows()).toEqual(many.slice(0, 10).map((r) => r.name));
    // Every row is drawn, for a desk's box; on a phone the box does not bound them.
    expect(within(table()).getAllByRole('row')).toHaveLength(26);
    expect(screen.getByLabelText('Teams, scrollable').className).toContain('max-sm:max-h-none!');
    const more = screen.getByRole('button', { name: 'Show more of Teams' });
    expect(more.textContent).toBe('Show more');
    expect(more.closest('div')!.className).toContain('sm:hidden');
    expect(screen.getByText('10 of 25 shown')).toBeTruthy();
    fireEvent.click(more);
    expect(phoneRows()).toHaveLength(20);
    fireEvent.click(screen.getByRole('button', { name: 'Show more of Teams' }));
    expect(phoneRows()).toHaveLength(25);
    expect(screen.getByText('25 of 25 shown')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more of Teams' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    expect(phoneRows()).toHaveLength(10);
  });

  it('a list of ten rows or fewer has nothing more to show', () => {
    renderMany(many.slice(0, 10));
    expect(phoneRows()).toHaveLength(10);
    expect(screen.queryByRole('button', { name: /^Show more/ })).toBeNull();
    expect(screen.queryByText(/shown$/)).toBeNull();
  });
});
