/** Who the simulated users are: one persona per user, drawn once from the seed, that drives all their days. */
import {
  DELEGATION,
  FIRST_NAMES,
  HOOKS,
  LANGUAGES,
  LAST_NAMES,
  MCP_SERVERS,
  MODELS,
  SKILLS,
  SLASH_COMMANDS,
} from './catalog';
import { between, hashSeed, normal, rng, weighted, type Rng } from './rng';

export interface Persona {
  index: number;
  id: string;
  email: string | null;
  /** Day index (from history start) of joining, and of leaving (exclusive). */
  join: number;
  leave: number;
  intensity: number;
  weekdayP: number;
  weekendP: number;
  clientP: readonly [number, number, number];
  primaryModel: number;
  secondaryModel: number;
  primaryShare: number;
  languages: readonly number[];
  delegation: number;
  autonomy: number;
  mcpServers: readonly number[];
  skillP: number;
  slashP: number;
  hooks: readonly number[];
}

const weightsOf = (xs: readonly (readonly [unknown, number, ...unknown[]])[]) => xs.map((x) => x[1]);
const MODEL_W = MODELS.map((m) => m.popularity);
export const LANG_W = weightsOf(LANGUAGES);
export const DELEG_W = weightsOf(DELEGATION);
export const MCP_W = weightsOf(MCP_SERVERS);
export const SKILL_W = weightsOf(SKILLS);
export const SLASH_W = weightsOf(SLASH_COMMANDS);

function distinctPicks(r: Rng, weights: readonly number[], n: number): number[] {
  const out: number[] = [];
  for (let guard = 0; out.length < n && guard < 50; guard++) {
    const i = weighted(r, weights);
    if (!out.includes(i)) out.push(i);
  }
  return out;
}

export function makePersona(seed: string, index: number, totalDays: number): Persona {
  const r = rng(hashSeed(seed, 'persona', index));
  const id = `usr_${hashSeed(seed, 'id', index).toString(36).padStart(7, '0')}${index.toString(36)}`;
  const first = FIRST_NAMES[Math.floor(r() * FIRST_NAMES.length)]!;
  const last = LAST_NAMES[Math.floor(r() * LAST_NAMES.length)]!;
  const email = r() < 0.04 ? null : `${first}.${last}${index}@acme.example`;
  // A third were there from the start; the rest joined over the year (growth).
  const join = r() < 0.35 ? 0 : Math.floor(totalDays * Math.sqrt(r()) * 0.95);
  const leave = r() < 0.1 ? join + 14 + Math.floor(r() * Math.max(1, totalDays - join)) : Number.MAX_SAFE_INTEGER;
  const intensity = Math.exp(normal(r) * 0.7);
  // Many light users and a core of daily ones (published DAU/MAU is about a quarter).
  const weekdayP = 0.04 + 0.86 * r() ** 2;
  const weekendP = weekdayP * between(r, 0.05, 0.4);
  const clientP: [number, number, number] = [
    r() < 0.9 ? between(r, 0.6, 1) : 0,
    r() < 0.35 ? between(r, 0.2, 0.7) : 0,
    r() < 0.22 ? between(r, 0.2, 0.8) : 0,
  ];
  const primaryModel = weighted(r, MODEL_W);
  let secondaryModel = weighted(r, MODEL_W);
  if (secondaryModel === primaryModel) secondaryModel = (primaryModel + 1) % MODELS.length;
  const primaryShare = between(r, 0.6, 0.97);
  const languages = distinctPicks(r, LANG_W, 1 + Math.floor(r() * 3));
  const delegation = weighted(r, DELEG_W);
  const autonomy = DELEGATION[delegation]![2] * Math.exp(normal(r) * 0.25);
  const mcpServers = r() < 0.4 ? distinctPicks(r, MCP_W, 1 + Math.floor(r() * 3)) : [];
  const skillP = r() < 0.45 ? between(r, 0.1, 0.8) : 0;
  const slashP = r() < 0.7 ? between(r, 0.2, 0.9) : 0;
  const hooks = HOOKS.map((_, i) => i).filter(() => r() < 0.35);
  return {
    index,
    id,
    email,
    join,
    leave,
    intensity,
    weekdayP,
    weekendP,
    clientP,
    primaryModel,
    secondaryModel,
    primaryShare,
    languages,
    delegation,
    autonomy,
    mcpServers,
    skillP,
    slashP,
    hooks,
  };
}
