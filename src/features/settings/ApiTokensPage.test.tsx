// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKENS_NEED_SIGN_IN, TOKENS_NEED_STORE, type ApiToken } from '../../api/api-tokens';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import ApiTokensPage from './ApiTokensPage';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const SIGNED_IN = { ...TEST_CONFIG, signIn: true, teams: true };
const TOKEN = `aud_pat_${'Q'.repeat(43)}`;
const about: ApiToken = {
  id: 't1',
  name: 'Weekly report',
  email: 'ann@acme.example',
  createdAt: '2026-05-31T09:00:00.000Z',
  expiresAt: '2026-08-29T09:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  revokedBy: null,
  state: 'active',
};

afterEach(() => vi.unstubAllGlobals());

describe('ApiTokensPage', () => {
  it('says why there are no tokens without sign-in, or without a store, and offers none', async () => {
    const fetch = vi.fn(async () => json({}));
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<ApiTokensPage />, { config: TEST_CONFIG });
    expect(await screen.findByText(TOKENS_NEED_SIGN_IN)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Make a token' })).toBeNull();
    expect(fetch).not.toHaveBeenCalledWith(expect.stringContaining('/api/api-tokens'), expect.anything());
    renderWithApp(<ApiTokensPage />, { config: { ...SIGNED_IN, teams: false } });
    expect(await screen.findByText(TOKENS_NEED_STORE)).toBeTruthy();
  });

  it('shows a new token once, with its name and expiry, and forgets it when the reader is done', async () => {
    const made: unknown[] = [];
    let tokens: ApiToken[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const path = new URL(String(input), 'http://dashboard.test').pathname;
        if (path === '/api/me')
          return json({ email: about.email, name: null, role: 'viewer', teams: [], userId: null, orgView: true });
        if (path === '/api/api-tokens' && init?.method === 'POST') {
          made.push(JSON.parse(String(init.body)));
          tokens = [about];
          return json({ token: TOKEN, about }, 201);
        }
        if (path === '/api/api-tokens') return json({ tokens });
        return json({ title: 'Not Found', detail: `No ${path}.` }, 404);
      }),
    );
    renderWithApp(<ApiTokensPage />, { config: SIGNED_IN });
    expect(await screen.findByText('No tokens yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Weekly report' } });
    fireEvent.change(screen.getByLabelText('Expires after'), { target: { value: '365' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make token' }));
    const field = await screen.findByLabelText<HTMLInputElement>(/^Your new token/);
    expect(made).toEqual([{ name: 'Weekly report', days: 365 }]);
    expect(field.value).toBe(TOKEN);
    expect(screen.getByText(/expires on Aug 29, 2026/)).toBeTruthy();
    // Where an AI assistant reaches the dashboard with it, and where the API is described.
    expect(screen.getByText(`${window.location.origin}/mcp`).closest('p')!.textContent).toMatch(
      /AI assistant, give it the MCP server .+ with the token as its bearer/,
    );
    expect(screen.getByRole('link', { name: '/api/openapi.json' }).getAttribute('href')).toBe('/api/openapi.json');
    await waitFor(() => expect(screen.getByText(/Made May 31, 2026/)).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Done: I have copied it' }));
    expect(await screen.findByRole('form', { name: 'Make a token' })).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(TOKEN);
  });
});
