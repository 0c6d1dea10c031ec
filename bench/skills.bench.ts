// Tokens that available skills (SEP-2640) add to a chat request, measured on
// the request the host builds (planRequest: the system prompt and the tool
// list), with 20 skills against none. Tokens are counted with the app's own
// estimate for what it sends (estimateTokens: characters / 4). Target
// (issue 25): at most 1,000 tokens for 20 skills.
//   typical: names and descriptions like published skills (20–60 words);
//   at the limits: 64-character names and 1,024-character descriptions, the
//   extension's maxima, on servers with long names.
// Prints values measured in this one run; asserts nothing.
import type { OfferedSkill } from '../electron/host/features/skill-listing.js';
import { planRequest } from '../electron/host/chat/model-request.js';
import type { PlanInput } from '../electron/host/chat/model-request.js';
import { BUDGETED_SKILLS, SKILLS_TOKEN_BUDGET, skillsSection } from '../electron/host/chat/skill-offer.js';
import { estimateTokens } from '../electron/host/chat/tool-offer.js';
import { DEFAULT_TOOL_SEARCH } from '../shared/model/settings.js';
import { table } from './lib/measure.js';

const TOPICS = [
  'Word documents',
  'PDF forms',
  'slide decks',
  'spreadsheets with formulas',
  'brand guidelines',
  'release notes',
  'SQL migrations',
  'API reference pages',
  'meeting notes',
  'incident reports',
];

function typical(count: number): OfferedSkill[] {
  return Array.from({ length: count }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length] ?? 'documents';
    return {
      server: ['docs', 'office-tools', 'engineering'][i % 3] ?? 'docs',
      name: `${topic.split(' ')[0]?.toLowerCase() ?? 'skill'}-${String(i)}`,
      description: `Create, edit and review ${topic}: keeps the house style, checks structure and references, and explains each change. Use when the user asks for ${topic} or attaches one.`,
      uri: `skill://s${String(i)}/SKILL.md`,
    };
  });
}

function atLimits(count: number): OfferedSkill[] {
  return Array.from({ length: count }, (_, i) => ({
    server: `a-server-with-a-rather-long-name-${String(i % 4)}`.padEnd(64, 'x'),
    name: `skill-${String(i)}-`.padEnd(64, 'n'),
    description: `Step ${String(i)} of a long procedure, described at length. `.repeat(40).slice(0, 1024),
    uri: `skill://s${String(i)}/SKILL.md`,
  }));
}

const base: PlanInput = {
  history: [
    {
      id: 'm1',
      conversationId: 'c',
      turnId: 't',
      role: 'user',
      blocks: [{ type: 'text', text: 'hello' }],
      createdAt: 0,
    },
  ],
  servers: [],
  model: 'claude-sonnet-4-5',
  toolSearch: DEFAULT_TOOL_SEARCH,
  pinned: [],
  quirks: { noToolSearch: false, noThinking: false, noContextManagement: false },
  contextWindow: 200_000,
};

/** Characters of what a request carries besides the messages: the system prompt and the tools. */
function requestChars(skills: readonly OfferedSkill[]): number {
  const plan = planRequest({ ...base, skills });
  return JSON.stringify(plan.system).length + JSON.stringify(plan.offer.tools).length;
}

const none = requestChars([]);
const rows: string[][] = [
  ['skills', 'listed', 'kind', 'added characters', 'added tokens (chars/4)', 'target', 'within'],
];
for (const [kind, make] of [
  ['typical', typical],
  ['at the limits', atLimits],
] as const) {
  for (const count of [1, 5, BUDGETED_SKILLS, 100]) {
    const added = requestChars(make(count)) - none;
    const tokens = estimateTokens(added);
    rows.push([
      String(count),
      String(skillsSection(make(count))?.listed ?? 0),
      kind,
      added.toLocaleString('en-US'),
      tokens.toLocaleString('en-US'),
      SKILLS_TOKEN_BUDGET.toLocaleString('en-US'),
      tokens <= SKILLS_TOKEN_BUDGET ? 'yes' : 'NO',
    ]);
  }
}
table(rows);
console.log(
  `Target: ≤ ${SKILLS_TOKEN_BUDGET.toLocaleString('en-US')} tokens added for ${String(BUDGETED_SKILLS)} skills (characters / 4, the estimate the app uses for tool definitions).`,
);
