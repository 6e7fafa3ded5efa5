import { describe, expect, it } from 'vitest';
import type { PersonRows, ViewScope } from '../auth/access';
import { cursorSealer } from '../auth/cursor';
import { privacyLens } from '../auth/privacy';
import { json, type HttpResponse } from '../core/response';
import { shapeAnalytics } from './routes';

const cursors = cursorSealer('a-session-secret-of-at-least-32-characters!');
const ANN = { user_id: 'u_ann', user_email: 'ann@acme.example' };
const BO = { user_id: 'u_bo', user_email: 'bo@acme.example' };
const CY = { user_id: 'u_cy', user_email: 'cy@acme.example' };
/** A manager of Ann and Bo. */
const rows: PersonRows = { sees: (id) => id === 'u_ann' || id === 'u_bo', ...cursors };
const scope = (extra: Partial<ViewScope> = {}): ViewScope => ({
  orgView: true,
  seesTeamDetails: () => false,
  admin: false,
  email: 'ann@acme.example',
  key: 'k',
  rows,
  ...extra,
});
const body = (r: HttpResponse) =>
  JSON.parse(r.body) as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
const tokensDay = (date: string, people: object[]) => ({ date, billable_tokens: '30', by_user: people });

describe('an analytics answer shaped to its reader', () => {
  it('keeps only the reader’s people in every day’s split, whatever the request asked for', () => {
    // What a lenient service sends for `group_by=x`: the days ungrouped, everyone's split in them.
    const answer = json(200, {
      data: [tokensDay('2026-02-01', [ANN, BO, CY]), tokensDay('2026-02-02', [CY])],
      meta: {},
    });
    const shaped = body(shapeAnalytics(answer, scope()));
    expect(shaped.data.map((d) => (d.by_user as { user_id: string }[]).map((u) => u.user_id))).toEqual([
      ['u_ann', 'u_bo'],
      [],
    ]);
    // The day's organization totals are aggregates: they stay.
    expect(shaped.data.map((d) => d.billable_tokens)).toEqual(['30', '30']);
  });

  it('keeps only the reader’s people among person rows, and seals the cursor naming the page’s last person', () => {
    const answer = json(200, { data: [ANN, CY, BO], meta: { org_id: 'o', has_more: true, next_cursor: 'u_cy' } });
    const shaped = body(shapeAnalytics(answer, scope()));
    expect(shaped.data.map((r) => r.user_id)).toEqual(['u_ann', 'u_bo']);
    expect(shaped.meta).toMatchObject({ org_id: 'o', has_more: true });
    expect(shaped.meta.next_cursor).not.toContain('u_cy');
    expect(cursors.open(shaped.meta.next_cursor as string)).toBe('u_cy');
  });

  it('gives a manager in privacy mode their own row only: their people in a range may be fewer than k', () => {
    const privacy = privacyLens({ minGroup: 3, secret: 'privacy-secret-of-at-least-32-characters!!' });
    const shaped = body(shapeAnalytics(json(200, { data: [ANN, BO, CY], meta: {} }), scope({ privacy })));
    expect(shaped.data).toEqual([ANN]);
    const days = body(
      shapeAnalytics(json(200, { data: [tokensDay('2026-02-01', [ANN, BO])], meta: {} }), scope({ privacy })),
    );
    expect(days.data[0]!.by_user).toEqual([ANN]);
  });

  it('takes people out wherever the service put them, and refuses what is not the documented envelope', () => {
    // Nested deeper than a day's split (a per-model split of people), or alone as a field.
    const deep = json(200, {
      data: [{ date: '2026-02-01', by_model: [{ model: 'm', by_user: [ANN, CY] }], top: CY, lead: ANN }],
      meta: {},
    });
    const shaped = body(shapeAnalytics(deep, scope()));
    expect(shaped.data[0]).toEqual({
      date: '2026-02-01',
      by_model: [{ model: 'm', by_user: [ANN] }],
      top: null,
      lead: ANN,
    });
    // Everyone's rows as a bare list, or a success other than 200: refused, nobody in it.
    for (const r of [json(200, [ANN, CY]), json(203, { rows: [CY] }), json(200, { data: { CY } })]) {
      const refused = shapeAnalytics(r, scope());
      expect(refused.status, r.body).toBe(502);
      expect(refused.body).not.toContain('u_cy');
    }
  });

  it('gives no answer that cannot be limited, and leaves an admin’s, an error and a reader without sign-in alone', () => {
    const broken: HttpResponse = { status: 200, headers: {}, body: '{"data":[{"user_id":"u_cy"' };
    const refused = shapeAnalytics(broken, scope());
    expect(refused.status).toBe(502);
    expect(refused.body).toContain('not valid JSON');
    expect(refused.body).not.toContain('u_cy');
    const everyone = json(200, { data: [ANN, CY], meta: {} });
    expect(shapeAnalytics(everyone, scope({ admin: true, rows: undefined }))).toBe(everyone);
    expect(shapeAnalytics(everyone, undefined)).toBe(everyone);
    const error = json(400, { title: 'Bad Request', detail: 'no', status: 400 });
    expect(shapeAnalytics(error, scope())).toBe(error);
  });
});
