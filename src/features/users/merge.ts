/**
 * Merges `/users` rows (one per user per active day, split across pages in any
 * way) into one row per user. Pure and incremental: feed pages as they come.
 */
import type { UserRow } from '../../api/schemas';

export interface MergedUser {
  userId: string;
  email: string | null;
  activeDays: number;
  firstDay: string;
  lastDay: string;
  credits: number;
  toolCalls: number;
  sessions: number;
  messages: number;
  userMessages: number;
  assistantMessages: number;
  filesCreated: number;
  filesEdited: number;
  commits: number;
  prs: number;
  mcpCalls: number;
  skillCalls: number;
  slashCommands: number;
  hooks: number;
  /**
   * Tool calls per user turn over the whole range: the day ratios weighted by
   * that day's user messages, which equals Σ(ratio·turns) / Σturns.
   */
  autonomyRatio: number;
  primaryModel: string;
  primaryModelTier: string;
  delegationLevel: string;
  languages: string[];
}

interface Acc {
  row: MergedUser;
  days: Set<string>;
  ratioWeighted: number;
  models: Map<string, number>;
  tiers: Map<string, string>;
  delegation: Map<string, number>;
  languages: Set<string>;
}

function mostFrequent(m: Map<string, number>): string {
  let best = '';
  let n = -1;
  // Ties break by name so the result does not depend on row order.
  for (const [k, v] of m) if (v > n || (v === n && k < best)) [best, n] = [k, v];
  return best;
}

export class UserMerger {
  private accs = new Map<string, Acc>();

  add(rows: readonly UserRow[]): void {
    for (const r of rows) {
      let a = this.accs.get(r.user_id);
      if (!a) {
        a = {
          row: {
            userId: r.user_id,
            email: r.user_email,
            activeDays: 0,
            firstDay: r.date,
            lastDay: r.date,
            credits: 0,
            toolCalls: 0,
            sessions: 0,
            messages: 0,
            userMessages: 0,
            assistantMessages: 0,
            filesCreated: 0,
            filesEdited: 0,
            commits: 0,
            prs: 0,
            mcpCalls: 0,
            skillCalls: 0,
            slashCommands: 0,
            hooks: 0,
            autonomyRatio: 0,
            primaryModel: '',
            primaryModelTier: '',
            delegationLevel: '',
            languages: [],
          },
          days: new Set(),
          ratioWeighted: 0,
          models: new Map(),
          tiers: new Map(),
          delegation: new Map(),
          languages: new Set(),
        };
        this.accs.set(r.user_id, a);
      }
      const m = a.row;
      if (m.email === null && r.user_email) m.email = r.user_email;
      a.days.add(r.date);
      if (r.date < m.firstDay) m.firstDay = r.date;
      if (r.date > m.lastDay) m.lastDay = r.date;
      m.credits += r.billable_tokens;
      m.toolCalls += r.tool_calls;
      m.sessions += r.sessions;
      m.messages += r.messages;
      m.userMessages += r.user_messages;
      m.assistantMessages += r.assistant_messages;
      m.filesCreated += r.files_created;
      m.filesEdited += r.files_edited;
      m.commits += r.git_commits;
      m.prs += r.git_prs_created;
      m.mcpCalls += r.mcp_calls;
      m.skillCalls += r.skill_calls;
      m.slashCommands += r.slash_commands;
      m.hooks += r.hooks;
      a.ratioWeighted += r.autonomy_ratio * r.user_messages;
      a.models.set(r.primary_model, (a.models.get(r.primary_model) ?? 0) + 1);
      a.tiers.set(r.primary_model, r.primary_model_tier);
      a.delegation.set(r.delegation_level, (a.delegation.get(r.delegation_level) ?? 0) + 1);
      for (const l of r.languages) a.languages.add(l);
    }
  }

  result(): MergedUser[] {
    return [...this.accs.values()].map((a) => {
      const primaryModel = mostFrequent(a.models);
      return {
        ...a.row,
        activeDays: a.days.size,
        autonomyRatio: a.row.userMessages > 0 ? a.ratioWeighted / a.row.userMessages : 0,
        primaryModel,
        primaryModelTier: a.tiers.get(primaryModel) ?? '',
        delegationLevel: mostFrequent(a.delegation),
        languages: [...a.languages].sort(),
      };
    });
  }
}

export function mergeUserRows(rows: readonly UserRow[]): MergedUser[] {
  const m = new UserMerger();
  m.add(rows);
  return m.result();
}
