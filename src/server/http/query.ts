/**
 * The one parser of the dashboard's own endpoints' query parameters. A route declares what it takes
 * (a range under the names it uses, the teams, and its other parameters as a zod/mini shape); every
 * route then answers a bad query the same way: a 400 whose detail names the parameter and says what is
 * accepted. An unknown parameter or a repeated one (but `team`) is refused rather than guessed at: a typo
 * must not silently widen a table. A route may name others it takes several times (`repeated`).
 */
import * as z from 'zod/mini';
import { HISTORY_START, isDay, lastDays, type Day, type DayRange } from '../../lib/dates';
import { DEFAULT_DAYS } from '../../lib/url-state';
import type { Mapping } from '../teams/mapping';
import { comparePaths, UNASSIGNED } from '../teams/tree';

/** What a request asked for, or the detail of a 400. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; detail: string };

/** A value as a detail quotes it: short, and never able to break the sentence. */
export const quote = (v: unknown) => JSON.stringify(String(v).slice(0, 60));

/** What the parser reads beside the request: the latest day with data and the team mapping in force. */
export interface QueryContext {
  latest: Day;
  mapping: Mapping | null;
}

export interface QuerySpec<S extends z.core.$ZodLooseShape> {
  /**
   * The range, under the names the endpoint uses (`start`/`end`, or the service's `startDate`/`endDate`):
   * `optional` defaults to the last 30 days, `required` mirrors the service's endpoints, which need both.
   */
  range?: 'optional' | 'required';
  names?: readonly [string, string];
  /** Whether `team` (repeatable: the union of the teams, sub-teams included) is taken. */
  teams?: boolean;
  /** Every other parameter, each at most once but those named in `repeated`. */
  shape?: S;
  /** Parameters of `shape` that may be given several times: each is read as the list of its values, in order. */
  repeated?: readonly (keyof S & string)[];
}

export interface ParsedQuery<T> {
  /** The range asked for; the last 30 days for a route that declares none (and never reads it). */
  range: DayRange;
  /** The teams asked for, each a team of the mapping in force or Unassigned, sorted, once each. */
  teams: string[];
  params: T;
}

export type QueryParser<T> = ((search: URLSearchParams, ctx: QueryContext) => Parsed<ParsedQuery<T>>) & {
  /** The parameters it takes, as OpenAPI 3.1 describes query parameters (http/openapi.ts). */
  parameters?: QueryParameter[];
};

/** A query parameter as OpenAPI 3.1 describes one. */
export interface QueryParameter {
  name: string;
  in: 'query';
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
  style?: 'form';
  explode?: boolean;
}

/** A parameter's JSON Schema: what is sent (a text, before a parameter kind turns it into a number). */
const schemaOf = (s: z.core.$ZodType) => {
  const schema = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  // A parameter's or a body's schema sits inside the document, which says its dialect once.
  delete schema.$schema;
  return schema;
};

/** A route's parser, from what it declares. */
export function queryParser<S extends z.core.$ZodLooseShape = Record<never, never>>(
  spec: QuerySpec<S>,
): QueryParser<z.infer<z.ZodMiniObject<S>>> {
  const [startName, endName] = spec.names ?? ['start', 'end'];
  const rangeNames = spec.range ? [startName, endName] : [];
  const schema = z.strictObject((spec.shape ?? {}) as S);
  const allowed = [...rangeNames, ...Object.keys(schema.def.shape), ...(spec.teams ? ['team'] : [])];
  const repeated = new Set<string>(spec.repeated ?? []);
  const day = { type: 'string', format: 'date' };
  const parameters: QueryParameter[] = [
    ...rangeNames.map((name, i) => ({
      name,
      in: 'query' as const,
      required: spec.range === 'required',
      description: `The range's ${i === 0 ? 'first' : 'last'} day (UTC)${spec.range === 'optional' ? '; without both, the last 30 days' : ''}.`,
      schema: day,
    })),
    ...Object.entries(schema.def.shape).map(([name, s]) => ({
      name,
      in: 'query' as const,
      required: !(s as z.core.$ZodType)._zod.optin,
      schema: schemaOf(s as z.core.$ZodType),
      ...(repeated.has(name) && { style: 'form' as const, explode: true }),
    })),
    ...(spec.teams
      ? [
          {
            name: 'team',
            in: 'query' as const,
            required: false,
            description: "A team's path (its sub-teams with it); several for their union.",
            schema: { type: 'array', items: { type: 'string' } },
            style: 'form' as const,
            explode: true,
          },
        ]
      : []),
  ];
  const parse: QueryParser<z.infer<z.ZodMiniObject<S>>> = (search, ctx) => {
    const raw: Record<string, string | string[]> = {};
    for (const [k, v] of search) {
      if (k === 'team' && spec.teams) continue;
      if (!allowed.includes(k)) {
        return { ok: false, detail: `Unknown parameter ${quote(k)}; this endpoint takes ${allowed.join(', ')}.` };
      }
      if (repeated.has(k)) raw[k] = [...((raw[k] as string[] | undefined) ?? []), v];
      else if (Object.hasOwn(raw, k))
        return { ok: false, detail: `The parameter ${quote(k)} is given more than once.` };
      else raw[k] = v;
    }
    const { [startName]: start, [endName]: end, ...rest } = raw;
    let range = lastDays(DEFAULT_DAYS, ctx.latest);
    if (spec.range) {
      if (spec.range === 'required' && (start === undefined || end === undefined))
        return { ok: false, detail: `Give ${startName} and ${endName} (YYYY-MM-DD).` };
      const r = rangeOf(start as string | undefined, end as string | undefined, ctx.latest, [startName, endName]);
      if (!r.ok) return r;
      range = r.value;
    }
    const params = schema.safeParse(spec.range ? rest : raw);
    if (!params.success) return { ok: false, detail: params.error.issues[0]?.message ?? 'The query is not valid.' };
    let teams: string[] = [];
    if (spec.teams) {
      const asked = teamsOf(search);
      if (asked.length > 0) {
        const checked = checkTeams(asked, ctx.mapping);
        if (!checked.ok) return checked;
        teams = checked.value;
      }
    }
    return { ok: true, value: { range, teams, params: params.data } };
  };
  parse.parameters = parameters;
  return parse;
}

/**
 * Both days or neither (the last 30 days); within the stored history, up to the latest day. `names`
 * are the parameters' names as the endpoint spells them.
 */
function rangeOf(
  start: string | undefined,
  end: string | undefined,
  latest: Day,
  [s, e]: readonly [string, string] = ['start', 'end'],
): Parsed<DayRange> {
  if (start === undefined && end === undefined) return { ok: true, value: lastDays(DEFAULT_DAYS, latest) };
  if (start === undefined || end === undefined) {
    return { ok: false, detail: `Give both ${s} and ${e} (YYYY-MM-DD), or neither for the last 30 days.` };
  }
  if (!isDay(start)) return { ok: false, detail: `${s} must be a day (YYYY-MM-DD), got ${quote(start)}.` };
  if (!isDay(end)) return { ok: false, detail: `${e} must be a day (YYYY-MM-DD), got ${quote(end)}.` };
  if (end < start) return { ok: false, detail: `${e} (${end}) is before ${s} (${start}).` };
  if (start < HISTORY_START)
    return { ok: false, detail: `${s} (${start}) is before the history starts (${HISTORY_START}).` };
  if (end > latest) return { ok: false, detail: `${e} (${end}) is after the latest day with data (${latest}).` };
  return { ok: true, value: { start, end } };
}

/** The teams asked for, as written: `team` may be given several times (the union of the teams). */
function teamsOf(search: URLSearchParams): string[] {
  return [...new Set(search.getAll('team').map((t) => t.trim()))].filter((t) => t !== '');
}

/** The teams asked for, each a team of the mapping or Unassigned: sorted, once each. */
export function checkTeams(teams: readonly string[], mapping: Mapping | null): Parsed<string[]> {
  if (teams.length === 0) return { ok: false, detail: 'Name at least one team: team=<path> (several allowed).' };
  const known = new Set(mapping?.teams ?? []);
  for (const t of teams) {
    if (t !== UNASSIGNED && !known.has(t)) {
      return {
        ok: false,
        detail: `No team is called ${quote(t)} in the mapping in force; give a full path such as Engineering/Platform, or ${UNASSIGNED}.`,
      };
    }
  }
  return { ok: true, value: [...new Set(teams)].sort(comparePaths) };
}

// The parameter kinds the routes declare, each refusing a bad value with a sentence naming it.

/** A whole number from `min` to `max`, `dflt` when absent. */
export function whole(name: string, dflt: number, min: number, max: number) {
  const error = (iss: { input?: unknown }) =>
    `${name} must be a whole number from ${min} to ${max}, got ${quote(iss.input)}.`;
  return z._default(
    z.optional(
      z.pipe(
        z.string().check(
          z.regex(/^\d{1,9}$/, { error }),
          z.refine((v) => Number(v) >= min && Number(v) <= max, { error }),
        ),
        z.transform(Number),
      ),
    ),
    dflt,
  );
}

/** Free text of at most `max` characters, '' when absent. */
export const text = (name: string, max: number) =>
  z._default(
    z.optional(z.string().check(z.maxLength(max, { error: `${name} must be at most ${max} characters long.` }))),
    '',
  );

/** One of `values`, `dflt` when absent. */
export const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T, dflt: T[number]) =>
  z._default(
    z.optional(
      z.enum(values, { error: (iss) => `${name} must be one of ${values.join(', ')}, got ${quote(iss.input)}.` }),
    ),
    dflt,
  );
