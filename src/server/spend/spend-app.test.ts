/**
 * The spend endpoints over HTTP on the demo organization: spend is the service's own per-user, per-model
 * credits at the price list's prices (checked against the service's `/tokens` answer), the teams add up
 * to the organization, the month and its forecast follow the latest day, and budgets are set, refused
 * naming the problem, and kept in the store on both engines.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { budgetsSchema, spendAnswerSchema, teamsSpendSchema } from '../../api/spend';
import { teamsAnswerSchema } from '../../api/teams';
import { usersTableSchema } from '../../api/users';
import { toCsv } from '../../lib/csv';
import { usersCsvColumns } from '../../lib/user-merge';
import { createLogger } from '../core/log';
import { STORE_ENGINES } from '../../test/stores';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { parsePrices, priceOf, type PriceList } from './prices';
import { filePricesSource } from './source';

const dir = mkdtempSync(join(tmpdir(), 'spend-'));
const servers: Server[] = [];
const stores: StoreDb[] = [];
afterAll(async () => {
  servers.forEach((s) => s.close());
  await Promise.all(stores.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const PRICES = `{
  "currency": "EUR",
  "prices": [
    { "from": "2026-01-14", "perMillionCredits": 8 },
    { "from": "2026-01-14", "tier": "thinking", "perMillionCredits": 12 },
    { "from": "2026-03-10", "perMillionCredits": 6 }
  ]
}`;
const pricesFile = join(dir, 'prices.json');
writeFileSync(pricesFile, PRICES);
const LIST = (parsePrices(PRICES) as { ok: true; prices: PriceList }).prices;

// The latest day is March 19: the month so far is March 1–19.
const ENV = { DEMO_TODAY: '2026-03-20', DEMO_SEED: 'spend-app', DEMO_USERS: '120', DATA_DIR: ':memory:' };

async function start(env: Record<string, string> = {}, store?: StoreDb) {
  const full = { ...ENV, PRICES_FILE: pricesFile, ...env };
  const config = readServerConfig(full);
  const storeConfig = readStoreConfig(full);
  const s = store ?? (await openAppStore(config, storeConfig))!;
  if (!store) stores.push(s);
  const app = createApp(config, { store: s, storeConfig });
  const server = createServer((req, res) => app.handler(req, res, () => res.end()));
  servers.push(server);
  const base = await new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  return { base, app };
}

async function get(base: string, path: string) {
  const r = await fetch(base + path);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

interface TokenDay {
  date: string;
  billable_tokens: number;
  by_user: {
    user_id: string;
    billable_tokens: number;
    by_model: { model_id: string; model_tier: string; billable_tokens: number }[];
  }[];
}

/** The spend the price list gives the service's own `/tokens` days, for everyone or for some users. */
function expectedSpend(days: TokenDay[], who?: (userId: string) => boolean) {
  let spend = 0;
  for (const d of days)
    for (const u of d.by_user)
      if (!who || who(u.user_id))
        for (const m of u.by_model)
          spend += (m.billable_tokens * priceOf(LIST, d.date, m.model_id, m.model_tier)) / 1e6;
  return spend;
}

const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));

describe('spend on the demo organization', async () => {
  const { base } = await start();
  const RANGE = 'start=2026-03-01&end=2026-03-19';
  const service = (await get(base, '/api/v1/analytics/tokens?startDate=2026-03-01&endDate=2026-03-19')).body as {
    data: TokenDay[];
  };

  it('names the currency in the configuration, and prices the service’s own per-user, per-model credits', async () => {
    expect((await get(base, '/api/config')).body.currency).toBe('EUR');
    const s = spendAnswerSchema.parse((await get(base, `/api/spend?${RANGE}`)).body);
    expect(s.currency).toBe('EUR');
    expect(s.days.map((d) => d.date)).toEqual(service.data.map((d) => d.date).sort());
    close(s.spend, expectedSpend(service.data));
    expect(s.spend).toBeGreaterThan(0);
    close(
      s.credits,
      service.data.reduce((n, d) => n + d.billable_tokens, 0),
    );
    for (const d of s.days) {
      const day = service.data.find((x) => x.date === d.date)!;
      close(d.spend, expectedSpend([day]));
    }
    // The price changed on March 10: a standard credit costs less from then on.
    close(
      s.models.reduce((n, m) => n + m.spend, 0),
      s.spend,
    );
    expect(s.models.some((m) => m.tier === 'thinking')).toBe(true);
  });

  it('adds the teams up to the organization, and gives a team and one user their own people’s spend', async () => {
    await get(base, `/api/users?${RANGE}`); // the store learns the users
    const tree = teamsAnswerSchema.parse((await get(base, '/api/teams')).body);
    const t = teamsSpendSchema.parse((await get(base, `/api/spend/teams?${RANGE}`)).body);
    const org = t.rows.find((r) => r.team === '')!;
    const tops = [...tree.teams.map((x) => x.path), 'Unassigned'];
    close(
      tops.reduce((n, team) => n + t.rows.find((r) => r.team === team)!.spend, 0),
      org.spend,
    );
    close(
      tops.reduce((n, team) => n + t.rows.find((r) => r.team === team)!.month.monthToDate, 0),
      org.month.monthToDate,
    );
    const team = tree.teams[0]!.path;
    const one = spendAnswerSchema.parse((await get(base, `/api/spend?${RANGE}&team=${encodeURIComponent(team)}`)).body);
    close(one.spend, t.rows.find((r) => r.team === team)!.spend);
    const users = (await get(base, `/api/users?${RANGE}&team=${encodeURIComponent(team)}&limit=1000`)).body as {
      users: { userId: string }[];
    };
    const people = new Set(users.users.map((u) => u.userId));
    close(
      one.spend,
      expectedSpend(service.data, (id) => people.has(id)),
    );
    const someone = users.users[0]!.userId;
    const mine = spendAnswerSchema.parse(
      (await get(base, `/api/spend?${RANGE}&user=${encodeURIComponent(someone)}`)).body,
    );
    close(
      mine.spend,
      expectedSpend(service.data, (id) => id === someone),
    );
    expect(mine.user).toBe(someone);
  });

  it('gives the month of the latest day, to date and forecast, saying how it is made', async () => {
    const s = spendAnswerSchema.parse((await get(base, `/api/spend?${RANGE}`)).body);
    expect(s.month).toMatchObject({
      month: '2026-03',
      latest: '2026-03-19',
      daysElapsed: 19,
      daysLeft: 12,
      basisDays: 28,
    });
    close(s.month.monthToDate, s.spend); // the range is the month so far
    const f = s.month.forecast!;
    expect(f.low).toBeLessThanOrEqual(f.mid);
    expect(f.mid).toBeLessThanOrEqual(f.high);
    expect(f.low).toBeGreaterThan(s.month.monthToDate);
    expect(s.method).toMatch(/last four weeks/);
    expect(s.month.budget).toBeNull();
  });

  it('refuses bad parameters with the documented 400 and a detail', async () => {
    for (const [q, detail] of [
      ['start=2026-03-01&end=2026-03-19&team=Nobody', /No team is called "Nobody"/],
      ['start=2026-03-01&end=2026-03-19&colour=red', /Unknown parameter "colour"/],
      ['start=2026-03-01', /Give both start and end/],
      ['start=2026-03-01&end=2026-03-19&user=u1&user=u2', /"user" is given more than once/],
    ] as const) {
      const r = await get(base, `/api/spend?${q}`);
      expect(r.status, q).toBe(400);
      expect(String(r.body.detail), q).toMatch(detail);
    }
  });

  it('answers 404 naming PRICES_FILE without a price list, and the configuration names no currency', async () => {
    const plain = await start({ PRICES_FILE: '' });
    expect((await get(plain.base, '/api/config')).body.currency).toBeNull();
    const r = await get(plain.base, `/api/spend?${RANGE}`);
    expect(r.status).toBe(404);
    expect(String(r.body.detail)).toMatch(/PRICES_FILE/);
  });

  it('puts each person’s spend beside their credits in the users table, sorts by it and writes it to the CSV', async () => {
    const t = usersTableSchema.parse((await get(base, `/api/users?${RANGE}&sort=spend&dir=desc&limit=1000`)).body);
    expect(t.total).toBeGreaterThan(50);
    expect(t.users).toHaveLength(t.total);
    for (const u of t.users)
      close(
        u.spend!,
        expectedSpend(service.data, (id) => id === u.userId),
      );
    const spends = t.users.map((u) => u.spend!);
    expect(spends).toEqual([...spends].sort((a, b) => b - a));
    // Everyone's spend is the organization's.
    const org = spendAnswerSchema.parse((await get(base, `/api/spend?${RANGE}`)).body);
    close(
      spends.reduce((n, v) => n + v, 0),
      org.spend,
    );
    const asc = usersTableSchema.parse((await get(base, `/api/users?${RANGE}&sort=spend&dir=asc&limit=3`)).body);
    expect(asc.users.map((u) => u.userId)).toEqual(
      t.users
        .slice(-3)
        .reverse()
        .map((u) => u.userId),
    );

    const csv = await (await fetch(`${base}/api/users.csv?${RANGE}&sort=spend&dir=desc`)).text();
    const [header, ...lines] = csv.trim().split('\r\n');
    const cols = header!.split(',');
    // The person's team and its managers come first with the demo's mapping, then credits (the service's billable_tokens) and spend.
    expect(cols.slice(0, 6)).toEqual(['user_id', 'user_email', 'team', 'managers', 'billable_tokens', 'spend_eur']);
    expect(lines).toHaveLength(t.total);
    const first = lines[0]!.split(',');
    expect(first[0]).toBe(t.users[0]!.userId);
    expect(Number(first[5])).toBe(Number(t.users[0]!.spend!.toFixed(2)));
    // Every cell as the browser's CSV writes the same rows (the engine writes the figures, spend to the cent).
    const { header: columns, row } = usersCsvColumns('EUR', true, true);
    expect(csv).toBe(toCsv(columns, t.users.map(row)));
  });

  it('prices the users table again when the price list changes', async () => {
    const file = join(dir, 'changing-prices.json');
    writeFileSync(file, PRICES);
    const changing = await start({ PRICES_FILE: file });
    const spendOf = async () => {
      const t = usersTableSchema.parse((await get(changing.base, `/api/users?${RANGE}&sort=user&limit=1000`)).body);
      return new Map(t.users.map((u) => [u.userId, u.spend!]));
    };
    const before = await spendOf();
    expect(before.size).toBeGreaterThan(50);
    // Every price doubled: everyone's spend doubles, the table is not served as it was.
    writeFileSync(
      file,
      PRICES.replace('"perMillionCredits": 8', '"perMillionCredits": 16').replace('12', '24').replace('": 6', '": 12'),
    );
    await expect
      .poll(async () => (await spendOf()).get([...before.keys()][0]!), { timeout: 5000 })
      .not.toBe(before.get([...before.keys()][0]!));
    const after = await spendOf();
    for (const [id, v] of before) close(after.get(id)!, 2 * v);
  });

  it('has no spend in the users table or its CSV without a price list, and refuses to sort by it', async () => {
    const plain = await start({ PRICES_FILE: '' });
    const t = usersTableSchema.parse((await get(plain.base, `/api/users?${RANGE}&limit=5`)).body);
    expect(t.users.length).toBeGreaterThan(0);
    for (const u of t.users) expect(u).not.toHaveProperty('spend');
    const csv = await (await fetch(`${plain.base}/api/users.csv?${RANGE}`)).text();
    expect(csv.split('\r\n', 1)[0]).not.toMatch(/spend/);
    for (const path of ['/api/users', '/api/users.csv']) {
      const r = await get(plain.base, `${path}?${RANGE}&sort=spend`);
      expect(r.status, path).toBe(400);
      expect(String(r.body.detail), path).toMatch(/sort=spend needs a price list \(PRICES_FILE\)/);
    }
  });
});

describe('a price file', () => {
  it('is refused at start naming its line', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"currency": "EUR", "prices": [\n {"from": "2026-01-14", "perMillionCredits": "eight"}\n]}');
    expect(() =>
      filePricesSource(
        bad,
        createLogger(() => {}),
      ),
    ).toThrow(/PRICES_FILE bad\.json was refused: line 2: "perMillionCredits" must be a number/);
  });

  it('changed to a bad one keeps the list in force and says why; a good change is taken', async () => {
    const file = join(dir, 'changing.json');
    writeFileSync(file, PRICES);
    const logs: string[] = [];
    const source = filePricesSource(
      file,
      createLogger((l) => logs.push(l)),
      20,
    );
    try {
      expect(source.current().prices?.currency).toBe('EUR');
      writeFileSync(file, PRICES.replace('"EUR"', '"euro"'));
      await expect.poll(() => source.current().refused, { timeout: 10_000 }).not.toBeNull();
      expect(source.current().prices?.currency).toBe('EUR');
      expect(source.current().refused!.errors[0]!.message).toMatch(/^line 2: "currency" must be/);
      expect(logs.some((l) => l.includes('price list refused'))).toBe(true);
      writeFileSync(file, PRICES.replace('"EUR"', '"USD"').replace('"perMillionCredits": 8', '"perMillionCredits": 9'));
      await expect.poll(() => source.current().prices?.currency, { timeout: 10_000 }).toBe('USD');
      expect(source.current().refused).toBeNull();
    } finally {
      source.stop();
    }
  });
});

describe.each(STORE_ENGINES)('budgets, kept in the store ($name)', ({ available, open }) => {
  it.skipIf(!available)(
    'are set, refused naming the problem (those in force stay), shown with their state, and kept',
    async () => {
      const opened = await open();
      try {
        const { base } = await start({ DEMO_USERS: '40' }, opened.store);
        const tree = teamsAnswerSchema.parse((await get(base, '/api/teams')).body);
        const team = tree.teams[0]!.path;
        const put = (body: unknown, headers: Record<string, string> = {}) =>
          fetch(`${base}/api/spend/budgets`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify(body),
          });
        const RANGE = 'start=2026-03-01&end=2026-03-19';
        const org = spendAnswerSchema.parse((await get(base, `/api/spend?${RANGE}`)).body);
        // A budget already passed, and one far above the forecast.
        const budgets = [
          { team: '', monthly: org.month.monthToDate / 2 },
          { team, monthly: 1e9 },
        ];
        expect((await put({ budgets })).status).toBe(200);
        expect(budgetsSchema.parse((await get(base, '/api/spend/budgets')).body)).toEqual({
          currency: 'EUR',
          budgets: [...budgets].sort((a, b) => a.team.localeCompare(b.team)),
        });
        const after = spendAnswerSchema.parse((await get(base, `/api/spend?${RANGE}`)).body);
        expect(after.month.budget).toMatchObject({ state: 'over', crossingForecast: false });
        expect(after.month.budget!.crossing! <= '2026-03-19').toBe(true);
        const teams = teamsSpendSchema.parse((await get(base, `/api/spend/teams?${RANGE}`)).body);
        expect(teams.rows.find((r) => r.team === team)!.month.budget).toMatchObject({
          state: 'on-track',
          crossing: null,
        });

        const refused = await put({
          budgets: [
            { team: 'Nobody', monthly: 10 },
            { team, monthly: -5 },
            { team: '', monthly: 10 },
            { team: '', monthly: 20 },
          ],
        });
        expect(refused.status).toBe(400);
        const detail = ((await refused.json()) as { detail: string }).detail;
        expect(detail).toMatch(/budget 1: no team is called "Nobody"/);
        expect(detail).toMatch(/budget 2: "monthly" must be a positive amount/);
        expect(detail).toMatch(/budget 4: a second budget for the organization/);
        expect(budgetsSchema.parse((await get(base, '/api/spend/budgets')).body).budgets).toEqual(
          [...budgets].sort((a, b) => a.team.localeCompare(b.team)),
        );
        expect((await put({ budgets: [] }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
        // A second server on the same store sees the budgets in force.
        const second = await start({ DEMO_USERS: '40' }, opened.store);
        expect(budgetsSchema.parse((await get(second.base, '/api/spend/budgets')).body).budgets).toHaveLength(2);
      } finally {
        await opened.drop();
      }
    },
  );
});
