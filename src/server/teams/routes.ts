/**
 * `GET /api/teams`: the mapping in force and the team tree with each team's
 * people (sub-teams included) among the users the store knows, the users no
 * team names ("Unassigned", never dropped), and the last refused file with
 * its reasons. Read-only: editing the mapping comes with sign-in.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse } from '../core/errors';
import { json, send } from '../core/response';
import type { StoreDb } from '../store/db';
import type { MappingSource } from './source';
import { assignUsers, directByTeam, nameOf, rollUp, teamTree, UNASSIGNED, type TeamNode } from './tree';

interface TeamView {
  path: string;
  name: string;
  /** People in the team and its sub-teams. */
  members: number;
  managers: string[];
  children: TeamView[];
}

export function createTeamsRoute(store: StoreDb | undefined, source: MappingSource) {
  async function knownUsers() {
    if (!store) return [];
    // One row per user, with an email whenever any of their days has one (the same on both engines).
    return store.db
      .selectFrom('user_day')
      .select((eb) => ['user_id', eb.fn.max('user_email').as('user_email')])
      .groupBy('user_id')
      .execute();
  }

  async function body() {
    const state = source.current();
    const users = (await knownUsers()).map((u) => ({ userId: u.user_id, email: u.user_email }));
    const byId = new Map(users.map((u) => [u.userId, u]));
    const mapping = state.mapping;
    const assignment = mapping ? assignUsers(mapping, byId.values()) : new Map<string, string>();
    const add = (a: number, b: number) => a + b;
    const direct = directByTeam(
      assignment,
      [...byId.keys()].map((id) => [id, 1] as const),
      add,
      0,
    );
    const counts = rollUp(direct, add, 0);
    const view = (n: TeamNode): TeamView => ({
      path: n.path,
      name: nameOf(n.path),
      members: counts.get(n.path) ?? 0,
      managers: [...(mapping?.managers.get(n.path) ?? [])].sort(),
      children: n.children.map(view),
    });
    return {
      source: state.source,
      name: state.name,
      loadedAt: state.loadedAt,
      refused: state.refused && {
        at: state.refused.at,
        errors: state.refused.errors.map((e) => e.message),
      },
      teams: mapping ? teamTree(mapping.teams).map(view) : [],
      unassigned: direct.get(UNASSIGNED) ?? 0,
      users: byId.size,
    };
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      return send(res, errorResponse(405, `Method ${req.method} is not allowed here.`, { allow: 'GET, HEAD' }), head);
    }
    body().then(
      (b) => send(res, json(200, b), head, String(req.headers['accept-encoding'] ?? '')),
      (e: unknown) => send(res, errorResponse(500, `The teams could not be read: ${String(e)}`), head),
    );
  };
}
