// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { captureDownloads, renderWithApp } from '../test/render';
import { Widget, type WidgetSource } from './Widget';

type Row = { name: string; value: number };
const ROWS: Row[] = [
  { name: 'alpha', value: 3 },
  { name: 'beta, "quoted"', value: 1200 },
];

function renderWidget(query: WidgetSource<Row[]>, extra: Partial<React.ComponentProps<typeof Widget<Row[]>>> = {}) {
  return renderWithApp(
    <Widget<Row[]>
      title="Sessions"
      description="Sessions per team"
      query={query}
      isEmpty={(d) => d.length === 0}
      csv={(d) => ({ filename: 'sessions.csv', header: ['name', 'value'], rows: d.map((r) => [r.name, r.value]) })}
      {...extra}
    >
      {(d) => (
        <ul aria-label="Rows">
          {d.map((r) => (
            <li key={r.name}>
              {r.name}: {r.value}
            </li>
          ))}
        </ul>
      )}
    </Widget>,
  );
}

const apiError = (over: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({
    status: 503,
    title: 'Service Unavailable',
    detail: 'The analytics service is restarting.',
    endpoint: '/api/v1/analytics/tokens',
    requestId: 'req-7f3a9',
    ...over,
  });

describe('Widget', () => {
  it('is a region named by its title, with the title as a heading and the description', () => {
    renderWidget({ data: ROWS });
    const region = screen.getByRole('region', { name: 'Sessions' });
    expect(within(region).getByRole('heading', { name: 'Sessions' })).toBeTruthy();
    expect(within(region).getByText('Sessions per team')).toBeTruthy();
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['alpha: 3', 'beta, "quoted": 1200']);
  });

  it('on a phone, shows two lines of a long description and the rest on request; a short one whole', () => {
    const long =
      'A team’s figures include its sub-teams. Adoption: active people in the range divided by members. Changes compare the range with the days before.';
    renderWidget({ data: ROWS }, { description: long });
    const text = screen.getByText(long);
    expect(text.className).toContain('max-sm:line-clamp-2');
    const more = screen.getByRole('button', { name: 'More about this' });
    expect(more.className).toContain('sm:hidden');
    fireEvent.click(more);
    expect(text.className).not.toContain('line-clamp');
    expect(screen.getByRole('button', { name: 'Less' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('has no "more" button for a short description', () => {
    renderWidget({ data: ROWS });
    expect(screen.getByText('Sessions per team').className).not.toContain('line-clamp');
    expect(screen.queryByRole('button', { name: 'More about this' })).toBeNull();
  });

  it('shows a loading status while pending without data, and neither data nor CSV', () => {
    renderWidget({ data: undefined, status: 'pending' });
    expect(screen.getByRole('status').textContent).toContain('Loading');
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('button', { name: /csv/i })).toBeNull();
  });

  it('shows the empty text when the data is empty, with no CSV button', () => {
    renderWidget({ data: [] }, { emptyText: 'No sessions in this range.' });
    expect(screen.getByText('No sessions in this range.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('button', { name: /csv/i })).toBeNull();
  });

  it('shows the default empty text for a settled query without data', () => {
    renderWidget({ data: undefined, status: 'success' });
    expect(screen.getByText('No data for this range.')).toBeTruthy();
  });

  it('shows an error with its status, title, detail and request id, and Retry calls refetch', () => {
    const refetch = vi.fn();
    renderWidget({ data: undefined, status: 'error', error: apiError(), refetch });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('503 Service Unavailable')).toBeTruthy();
    expect(within(alert).getByText('The analytics service is restarting.')).toBeTruthy();
    expect(within(alert).getByText('req-7f3a9')).toBeTruthy();
    expect(alert.textContent).toContain('Request id: req-7f3a9');
    expect(screen.queryByRole('status')).toBeNull();
    expect(refetch).not.toHaveBeenCalled();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('has no Retry button without refetch, and no request id line without one', () => {
    renderWidget({ data: undefined, status: 'error', error: apiError({ requestId: undefined }) });
    const alert = screen.getByRole('alert');
    expect(within(alert).queryByRole('button')).toBeNull();
    expect(alert.textContent).not.toContain('Request id');
  });

  it('explains a 401, a 403 and a 429 with its Retry-After', () => {
    const { unmount } = renderWidget({
      data: undefined,
      error: apiError({ status: 401, title: 'Unauthorized', detail: 'bad key' }),
    });
    expect(screen.getByRole('alert').textContent).toContain('The API key is missing or not valid.');
    unmount();
    const second = renderWidget({
      data: undefined,
      error: apiError({ status: 403, title: 'Forbidden', detail: 'role' }),
    });
    expect(screen.getByRole('alert').textContent).toContain('Manager or Owner role');
    second.unmount();
    renderWidget({ data: undefined, error: apiError({ status: 429, title: 'Too Many Requests', retryAfter: 17 }) });
    expect(screen.getByRole('alert').textContent).toContain('retry in 17 s');
  });

  it('shows a plain Error by its message', () => {
    renderWidget({ data: undefined, error: new Error('socket hang up') });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Something went wrong')).toBeTruthy();
    expect(within(alert).getByText('socket hang up')).toBeTruthy();
  });

  it('shows an error above the data it still shows, and hides it while a refresh is under way', () => {
    const refetch = vi.fn();
    const { rerender } = renderWidget({ data: ROWS, error: apiError(), refetch });
    const alert = screen.getByRole('alert');
    const list = screen.getByRole('list', { name: 'Rows' });
    expect(alert.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledTimes(1);

    rerender(
      <Widget<Row[]> title="Sessions" query={{ data: ROWS, error: apiError(), isFetching: true, refetch }}>
        {(d) => (
          <ul aria-label="Rows">
            {d.map((r) => (
              <li key={r.name}>{r.name}</li>
            ))}
          </ul>
        )}
      </Widget>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('list', { name: 'Rows' })).toBeTruthy();
  });

  it('dims placeholder data and marks it busy; current data is neither', () => {
    const { rerender } = renderWidget({ data: ROWS, isPlaceholderData: true });
    const busy = screen.getByRole('list', { name: 'Rows' }).closest('[aria-busy]');
    expect(busy?.getAttribute('aria-busy')).toBe('true');
    expect(busy?.className).toContain('opacity-50');

    rerender(
      <Widget<Row[]> title="Sessions" query={{ data: ROWS, isPlaceholderData: false }}>
        {(d) => (
          <ul aria-label="Rows">
            {d.map((r) => (
              <li key={r.name}>{r.name}</li>
            ))}
          </ul>
        )}
      </Widget>,
    );
    const settled = screen.getByRole('list', { name: 'Rows' }).closest('[aria-busy]');
    expect(settled?.getAttribute('aria-busy')).toBe('false');
    expect(settled?.className).not.toContain('opacity-50');
  });

  it('keeps a render failure of a component inside it within the widget, and Retry renders it again', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    function Chart() {
      if (fail) throw new Error('cannot draw this');
      return <p>drawn</p>;
    }
    renderWithApp(
      <>
        <Widget title="Broken" query={{ data: [1] }}>
          {() => <Chart />}
        </Widget>
        <Widget title="Fine" query={{ data: [1] }}>
          {() => <p>still here</p>}
        </Widget>
      </>,
    );
    const broken = screen.getByRole('region', { name: 'Broken' });
    expect(within(broken).getByRole('alert').textContent).toContain('cannot draw this');
    expect(within(screen.getByRole('region', { name: 'Fine' })).getByText('still here')).toBeTruthy();
    fail = false;
    fireEvent.click(within(broken).getByRole('button', { name: 'Retry' }));
    expect(within(broken).queryByRole('alert')).toBeNull();
    expect(within(broken).getByText('drawn')).toBeTruthy();
  });

  it('keeps a throw of its own render function (data shaping) within the widget', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithApp(
      <>
        <Widget title="Shaping fails" query={{ data: [1] }}>
          {() => {
            throw new Error('bad shape');
          }}
        </Widget>
        <Widget title="Fine" query={{ data: [1] }}>
          {() => <p>still here</p>}
        </Widget>
      </>,
    );
    const broken = screen.getByRole('region', { name: 'Shaping fails' });
    expect(within(broken).getByRole('alert').textContent).toContain('bad shape');
    expect(within(screen.getByRole('region', { name: 'Fine' })).getByText('still here')).toBeTruthy();
  });

  it('downloads a CSV of the data with its header, quoted cells and CRLF lines, then revokes the URL', async () => {
    const downloads = captureDownloads();
    renderWidget({ data: ROWS });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Sessions' }));
      expect(downloads.files).toEqual([{ name: 'sessions.csv', href: 'blob:test/1' }]);
      expect(downloads.revoked).toEqual([]);
      vi.advanceTimersByTime(1000);
      expect(downloads.revoked).toEqual(['blob:test/1']);
    } finally {
      vi.useRealTimers();
    }
    expect(downloads.blob().type).toBe('text/csv;charset=utf-8');
    expect(await downloads.text()).toBe('name,value\r\nalpha,3\r\n"beta, ""quoted""",1200\r\n');
  });
});
