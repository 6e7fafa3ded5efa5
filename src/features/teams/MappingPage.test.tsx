// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MappingText, TeamsAnswer, TeamView } from '../../api/teams';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import { json } from './fixtures';
import MappingPage from './MappingPage';

const CONFIG = { ...TEST_CONFIG, teams: true };

const team = (path: string, members: number, children: TeamView[] = []): TeamView => ({
  path,
  name: path.split('/').at(-1)!,
  members,
  managers: [],
  children,
});

const OLD_TEXT = 'email,team\nann@acme.com,Engineering\nbo@acme.com,Engineering/Platform\n';

const OLD: TeamsAnswer = {
  source: 'store',
  name: 'teams.csv',
  loadedAt: '2026-05-30T09:15:00.000Z',
  editable: true,
  refused: null,
  teams: [team('Engineering', 2, [team('Engineering/Platform', 1)])],
  unassigned: 8,
  users: 10,
  repos: 0,
};
const NEW: TeamsAnswer = {
  ...OLD,
  loadedAt: '2026-05-31T10:00:00.000Z',
  teams: [team('Engineering', 1), team('Sales', 1), team('Support', 1)],
  unassigned: 7,
  repos: 2,
};

/**
 * The dashboard's server and its mapping: GET answers what is in force; PUT answers `put` (and, on
 * success, puts the new text in force); DELETE goes back to the demo's.
 */
function stubServer(opts: { answer?: TeamsAnswer; text?: MappingText; put?: () => Response } = {}) {
  let answer = opts.answer ?? OLD;
  let text: MappingText = opts.text ?? { source: answer.source, format: 'csv', text: OLD_TEXT };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://dashboard.test');
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/teams' && method === 'GET') return json(answer);
    if (url.pathname === '/api/teams/mapping' && method === 'GET') return json(text);
    if (url.pathname === '/api/teams/mapping' && method === 'PUT') {
      const res = opts.put?.() ?? json({ ok: true });
      if (res.ok) {
        const body = JSON.parse(String(init?.body)) as { format: 'csv' | 'json'; text: string };
        answer = NEW;
        text = { source: 'store', ...body };
      } else if (res.status === 400) {
        answer = { ...answer, refused: { at: '2026-05-31T11:00:00.000Z', errors: ['line 3: refused'] } };
      }
      return res;
    }
    if (url.pathname === '/api/teams/mapping' && method === 'DELETE') {
      answer = { ...OLD, source: 'demo', name: 'demo', teams: [team('Research', 4)], unassigned: 6 };
      text = { source: 'demo', format: 'csv', text: 'email,team\n' };
      return new Response(null, { status: 204 });
    }
    return json({ title: 'Not Found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const render = () => renderWithApp(<MappingPage />, { url: '/settings/teams', config: CONFIG });
const textarea = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Mapping text' });
const inForce = () => screen.getByRole('region', { name: 'Mapping in force' });
const field = (label: string) => within(inForce()).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
const writes = (fetchMock: ReturnType<typeof stubServer>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method && init.method !== 'GET');

describe('MappingPage', () => {
  it('shows the mapping in force: its source, when it was loaded, its counts, and its text', async () => {
    stubServer();
    render();
    await waitFor(() => expect(textarea().value).toBe(OLD_TEXT));
    expect(field('Source')).toBe('Uploaded on this screen and kept by the dashboard server (teams.csv)');
    expect(field('Loaded')).toBe('May 30, 2026 09:15 UTC');
    expect(field('Teams')).toBe('2');
    expect(field('Known people')).toBe('10');
    expect(field('In a team')).toBe('2');
    expect(field('Unassigned')).toBe('8');
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('region', { name: 'Format' }).textContent).toContain('Engineering/Platform/Infra');
  });

  it('lists each problem of a refused mapping with its line, and keeps the mapping in force and its text', async () => {
    const fetchMock = stubServer({
      put: () =>
        json(
          {
            title: 'Bad Request',
            status: 400,
            detail: 'The mapping has 2 problems.',
            requestId: 'req-map-9',
            errors: [
              { line: 3, message: 'line 3: "bo@acme" is not a valid email' },
              { line: null, message: 'ann@acme.com is in two teams' },
            ],
          },
          400,
        ),
    });
    render();
    await waitFor(() => expect(textarea().value).toBe(OLD_TEXT));
    const draft = 'email,team\nann@acme.com,Engineering\nbo@acme,Sales\n';
    fireEvent.change(textarea(), { target: { value: draft } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The mapping was refused (2 problems): nothing changed.');
    expect(alert.textContent).toContain('The mapping in force stays as it was');
    // Said once: neither the server's sentence nor the first problem again beside the list.
    expect(alert.textContent!.match(/refused/g)).toHaveLength(1);
    expect(alert.textContent).not.toContain('The mapping has 2 problems.');
    expect(alert.textContent!.match(/is not a valid email/g)).toHaveLength(1);
    const problems = within(within(alert).getByRole('list', { name: 'Problems' })).getAllByRole('listitem');
    expect(problems.map((p) => p.querySelector('span')!.textContent)).toEqual([
      'line 3: "bo@acme" is not a valid email',
      'ann@acme.com is in two teams',
    ]);
    expect(within(alert).getByText('req-map-9')).toBeTruthy();
    // What was sent: the draft, as JSON.
    const [[path, init]] = writes(fetchMock) as [[string, RequestInit]];
    expect(path).toBe('/api/teams/mapping');
    expect(init.method).toBe('PUT');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(String(init.body))).toEqual({ format: 'csv', text: draft });

    // The draft stays for correcting; "Show line 3" selects that line of it.
    expect(textarea().value).toBe(draft);
    fireEvent.click(within(alert).getByRole('button', { name: 'Show line 3' }));
    expect(textarea().value.slice(textarea().selectionStart, textarea().selectionEnd)).toBe('bo@acme,Sales');
    // The mapping in force is unchanged, its counts too; the refusal is recorded beside it.
    expect(field('Teams')).toBe('2');
    expect(field('Unassigned')).toBe('8');
    expect(await within(inForce()).findByText(/A later version was refused on May 31, 2026 11:00 UTC/)).toBeTruthy();
    // And its text is still there to go back to.
    fireEvent.click(screen.getByRole('button', { name: 'Revert to the mapping in force' }));
    expect(textarea().value).toBe(OLD_TEXT);
  });

  it('saves an uploaded JSON file and shows the new mapping’s counts', async () => {
    const fetchMock = stubServer();
    render();
    await waitFor(() => expect(textarea().value).toBe(OLD_TEXT));
    const body = '[{"email":"ann@acme.com","team":"Engineering"}]';
    const file = new File([body], 'org.json', { type: 'application/json' });
    fireEvent.change(screen.getByLabelText('Upload a CSV or JSON file'), { target: { files: [file] } });
    await waitFor(() => expect(textarea().value).toBe(body));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'JSON' }).checked).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const saved = await screen.findByText(/^Saved\./);
    expect(saved.textContent).toBe(
      'Saved. The mapping in force now has 3 teams; 3 of the 10 known people are in a team, 7 Unassigned; 2 repositories or patterns owned.',
    );
    expect(JSON.parse(String((writes(fetchMock)[0]![1] as RequestInit).body))).toEqual({
      format: 'json',
      text: body,
      name: 'org.json',
    });
    // The screen reads the new mapping back: its counts and its text.
    expect(field('Teams')).toBe('3');
    expect(field('Loaded')).toBe('May 31, 2026 10:00 UTC');
    expect(textarea().value).toBe(body);
  });

  it('removes the uploaded mapping only once confirmed', async () => {
    const fetchMock = stubServer();
    render();
    await waitFor(() => expect(textarea().value).toBe(OLD_TEXT));
    fireEvent.click(screen.getByRole('button', { name: 'Remove the uploaded mapping' }));
    const confirm = screen.getByRole('group', { name: 'Confirm the removal' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(writes(fetchMock)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Remove the uploaded mapping' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, remove it' }));
    expect(await screen.findByText(/^The uploaded mapping was removed\./)).toBeTruthy();
    expect(writes(fetchMock).map(([p, init]) => [p, init?.method])).toEqual([['/api/teams/mapping', 'DELETE']]);
    expect(field('Source')).toBe('The demo organization’s mapping');
    expect(screen.queryByRole('button', { name: 'Remove the uploaded mapping' })).toBeNull();
  });

  it('is read-only for a mapping from TEAMS_FILE, and says how to change it', async () => {
    const fetchMock = stubServer({
      answer: { ...OLD, source: 'file', name: 'org-teams.csv', editable: false },
      text: { source: 'file', format: 'csv', text: OLD_TEXT },
    });
    render();
    const text = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Mapping in force (CSV)' });
    expect(text.value).toBe(OLD_TEXT);
    expect(text.readOnly).toBe(true);
    expect(field('Source')).toBe('The file org-teams.csv, named by the server’s TEAMS_FILE setting');
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('comes from the file org-teams.csv');
    expect(note.textContent).toContain('To change it, edit that file');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByLabelText('Upload a CSV or JSON file')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove the uploaded mapping' })).toBeNull();
    expect(writes(fetchMock)).toHaveLength(0);
  });

  it('shows a refused file’s reasons beside the mapping that stays in force', async () => {
    stubServer({
      answer: {
        ...OLD,
        source: 'file',
        name: 'org-teams.csv',
        editable: false,
        refused: { at: '2026-05-31T08:00:00.000Z', errors: ['line 7: the team is empty'] },
      },
    });
    render();
    const summary = await within(await screen.findByRole('region', { name: 'Mapping in force' })).findByText(
      /A later version was refused/,
    );
    expect(summary.textContent).toContain('May 31, 2026 08:00 UTC');
    expect(summary.textContent).toContain('(1 problem)');
    expect(within(inForce()).getByText('line 7: the team is empty')).toBeTruthy();
  });
});
