/** Names the simulated organization uses (from service-facts.md where given). */

interface ModelInfo {
  id: string;
  tier: 'standard' | 'thinking';
  /** Credit multiplier against the standard model. */
  multiplier: number;
  /** How often users pick it as their main model. */
  popularity: number;
}

export const MODELS: readonly ModelInfo[] = [
  { id: 'claude-sonnet-4-5', tier: 'standard', multiplier: 1, popularity: 34 },
  { id: 'claude-sonnet-4-20250514', tier: 'standard', multiplier: 1, popularity: 14 },
  { id: 'claude-opus-4-20250514', tier: 'thinking', multiplier: 5, popularity: 12 },
  { id: 'gpt-5.4', tier: 'thinking', multiplier: 1.4, popularity: 16 },
  { id: 'gemini-3.1-pro-preview', tier: 'thinking', multiplier: 1.2, popularity: 9 },
  { id: 'claude-haiku-4-5-20251001', tier: 'standard', multiplier: 0.3, popularity: 15 },
];

/** Tools with their share of calls. */
export const TOOLS: readonly (readonly [string, number])[] = [
  ['Read', 27],
  ['Edit', 18],
  ['Execute', 13.5],
  ['Grep', 9],
  ['Glob', 6],
  ['Create', 5],
  ['LS', 4.5],
  ['ApplyPatch', 4],
  ['TodoWrite', 4],
  ['Task', 3.5],
  ['FetchUrl', 3],
  ['WebSearch', 2.5],
];

/** A tool name with a parsing artifact, as the service sometimes reports (§8). */
export const ARTIFACT_TOOL = 'Read","file_path';

/** External tool servers; `axiom` and `Axiom` are one server spelled two ways. */
export const MCP_SERVERS: readonly (readonly [string, number])[] = [
  ['github', 40],
  ['linear', 20],
  ['notion', 14],
  ['sentry', 12],
  ['axiom', 8],
  ['Axiom', 6],
];

export const SKILLS: readonly (readonly [string, number])[] = [
  ['browser', 5],
  ['frontend-ui', 4],
  ['db-migrations', 2],
  ['release-notes', 1],
];

export const SLASH_COMMANDS: readonly (readonly [string, number])[] = [
  ['review', 6],
  ['test', 5],
  ['compact', 3],
  ['init', 1],
  ['explain', 2],
];

interface HookConfig {
  event: string;
  matcher: string;
  command: string;
  /** Executions per session (session-scoped hooks) or per tool call (tool hooks). */
  perSession?: number;
  perToolCall?: number;
}

export const HOOKS: readonly HookConfig[] = [
  { event: 'PreToolUse', matcher: 'Execute', command: './scripts/guard-shell.sh', perToolCall: 0.13 },
  { event: 'PostToolUse', matcher: 'Edit|Create', command: 'prettier --write', perToolCall: 0.2 },
  { event: 'UserPromptSubmit', matcher: '', command: './hooks/add-context.sh', perSession: 6 },
  { event: 'SessionStart', matcher: '', command: 'git fetch --quiet', perSession: 1 },
  { event: 'SessionEnd', matcher: '', command: './hooks/log-session.sh', perSession: 1 },
  { event: 'Stop', matcher: '', command: 'npm test --silent', perSession: 2 },
  { event: 'Notification', matcher: '', command: 'notify-send agent', perSession: 1.5 },
  { event: 'PreCompact', matcher: '', command: './hooks/save-transcript.sh', perSession: 0.3 },
];

export const LANGUAGES: readonly (readonly [string, number, readonly (readonly [string, number])[]])[] = [
  [
    'TypeScript',
    30,
    [
      ['.ts', 6],
      ['.tsx', 3],
      ['.json', 1],
    ],
  ],
  [
    'Python',
    24,
    [
      ['.py', 9],
      ['.ipynb', 1],
    ],
  ],
  [
    'Go',
    12,
    [
      ['.go', 10],
      ['.mod', 0.3],
    ],
  ],
  [
    'Java',
    8,
    [
      ['.java', 9],
      ['.xml', 1],
    ],
  ],
  [
    'Rust',
    6,
    [
      ['.rs', 9],
      ['.toml', 1],
    ],
  ],
  [
    'JavaScript',
    10,
    [
      ['.js', 7],
      ['.jsx', 2],
      ['.json', 1],
    ],
  ],
  [
    'Ruby',
    3,
    [
      ['.rb', 9],
      ['.erb', 1],
    ],
  ],
  ['SQL', 4, [['.sql', 1]]],
  ['Shell', 3, [['.sh', 1]]],
];

export const CLIENT_KEYS = ['terminal-ui', 'web', 'non-interactive-cli'] as const;

export const DELEGATION: readonly (readonly [string, number, number])[] = [
  // level, share of users, typical tool calls per user turn
  ['auto-high', 22, 13],
  ['auto-medium', 34, 8.5],
  ['auto-low', 20, 5],
  ['spec', 14, 7],
  ['manual', 10, 2.5],
];

export const FIRST_NAMES = [
  'ada',
  'alan',
  'grace',
  'linus',
  'margaret',
  'ken',
  'barbara',
  'dennis',
  'frances',
  'edsger',
  'radia',
  'guido',
  'yukihiro',
  'sophie',
  'tim',
  'katherine',
  'john',
  'hedy',
  'donald',
  'leslie',
  'anita',
  'bjarne',
  'shafi',
  'niklaus',
  'jean',
  'marian',
  'vint',
  'karen',
  'rob',
  'susan',
  'james',
  'mary',
  'carlos',
  'priya',
  'wei',
  'fatima',
  'olu',
  'ines',
  'mateo',
  'aiko',
];
export const LAST_NAMES = [
  'lovelace',
  'turing',
  'hopper',
  'torvalds',
  'hamilton',
  'thompson',
  'liskov',
  'ritchie',
  'allen',
  'dijkstra',
  'perlman',
  'rossum',
  'matsumoto',
  'wilson',
  'berners',
  'johnson',
  'backus',
  'lamarr',
  'knuth',
  'lamport',
  'borg',
  'stroustrup',
  'goldwasser',
  'wirth',
  'sammet',
  'croft',
  'cerf',
  'jones',
  'pike',
  'kare',
  'gosling',
  'keller',
  'silva',
  'nair',
  'zhang',
  'haddad',
  'adeyemi',
  'costa',
  'garcia',
  'tanaka',
];

export const REPO_WORDS_A = [
  'payments',
  'checkout',
  'search',
  'identity',
  'billing',
  'catalog',
  'inventory',
  'notify',
  'analytics',
  'mobile',
  'gateway',
  'ledger',
  'reports',
  'onboarding',
  'scheduler',
  'media',
  'pricing',
  'support',
  'risk',
  'shipping',
  'docs',
  'infra',
  'design-system',
  'data',
  'ml',
];
export const REPO_WORDS_B = ['service', 'web', 'api', 'platform', 'core', 'app', 'worker', 'sdk', 'tools', 'pipeline'];

export const APP_KINDS: readonly (readonly [string, string])[] = [
  ['apps/web', 'Customer-facing web front end'],
  ['apps/api', 'HTTP API serving the web and mobile clients'],
  ['apps/admin', 'Internal administration console'],
  ['services/worker', 'Background job processor for queued work'],
  ['packages/ui', 'Shared component library'],
  ['packages/sdk', 'Client SDK published to the package registry'],
  ['services/ingest', 'Event ingestion pipeline'],
];

/** Criterion ids reports may carry that are not in the known list. */
export const UNKNOWN_CRITERIA = ['agents_md_freshness', 'ai_review_bot'];
