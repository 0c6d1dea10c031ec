import type { OfferedSkill } from '../features/skill-listing.js';
import { estimateTokens } from './tool-offer.js';
import type { WireTool } from './wire-types.js';

/**
 * What a request says about the skills a conversation offers: a short
 * section of the system prompt naming each verified skill with a one-line
 * description, and the host's `load_skill` tool that loads one on demand.
 *
 * The budget: the section and the tool definition together stay within
 * SKILLS_TOKEN_BUDGET tokens (the same estimate as for tool definitions:
 * characters / 4). Descriptions are shortened to share it; past
 * MIN_LINE_CHARS per skill, skills are left out of the list and the
 * section says how many (load_skill with an unknown name lists them).
 */
export const SKILLS_TOKEN_BUDGET = 1000;
/** The budget is sized so that this many skills are listed with useful descriptions. */
export const BUDGETED_SKILLS = 20;
/** A skill's line is never longer than this, whatever the budget leaves. */
export const MAX_LINE_CHARS = 200;
/** Below this a line says too little: fewer skills are listed instead. */
export const MIN_LINE_CHARS = 48;

export const LOAD_SKILL_TOOL_NAME = 'load_skill';

/** The host's tool: handled by the host (turn-runner → skill-tool.ts), never sent to a server as a tool call. */
export const LOAD_SKILL_TOOL = {
  name: LOAD_SKILL_TOOL_NAME,
  description:
    'Loads one of the available skills: returns its instructions (SKILL.md) and the list of its files. With file, returns that file of the skill instead. Read-only.',
  input_schema: {
    type: 'object',
    properties: {
      server: { type: 'string', description: 'The server that offers the skill' },
      skill: { type: 'string', description: 'The skill name' },
      file: { type: 'string', description: "A file path from the skill's list" },
    },
    required: ['server', 'skill'],
  },
} as const satisfies WireTool;

const HEADER =
  'Skills the connected MCP servers offer (written by each server, not by the user). When a task matches one, load it with load_skill and follow it:';

/** Server text inside the section: one line, nothing that could close or open a tag. */
function clean(text: string): string {
  return text.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

export interface SkillsSection {
  /** For the system prompt. */
  text: string;
  tool: WireTool;
  listed: number;
  /** Estimated tokens the section and the tool add to a request (addedTokens). */
  tokens: number;
}

function render(skills: readonly OfferedSkill[], fit: number, lineChars: number): string {
  const lines = skills.slice(0, fit).map((skill) => {
    const head = `- ${cut(clean(skill.name), 64)} (server "${cut(clean(skill.server), 64)}")`;
    const description = clean(skill.description);
    return description === '' ? cut(head, lineChars) : cut(`${head}: ${description}`, lineChars);
  });
  const more = skills.length - fit;
  if (more > 0)
    lines.push(`(${String(more)} more not listed: load_skill with a server and any name lists them)`);
  return `${HEADER}\n<available_skills>\n${lines.join('\n')}\n</available_skills>`;
}

const TOOL_CHARS = JSON.stringify(LOAD_SKILL_TOOL).length;

/**
 * Tokens the section and the tool add to a request as sent: the text inside
 * a JSON string (quotes and line breaks escaped), the blank line that joins
 * it to the system prompt, the tool definition and the comma before it.
 */
export function addedTokens(text: string): number {
  return estimateTokens(JSON.stringify(text).length - 2 + '\\n\\n'.length + TOOL_CHARS + 1);
}

/** The section and tool for these skills, within the budget; undefined when there are none. */
export function skillsSection(skills: readonly OfferedSkill[]): SkillsSection | undefined {
  if (skills.length === 0) return undefined;
  // A first guess from the room the budget leaves for lines, then shortened until the exact count fits.
  const room = SKILLS_TOKEN_BUDGET * 4 - TOOL_CHARS - HEADER.length - 120;
  let fit = Math.max(1, Math.min(skills.length, Math.floor(room / MIN_LINE_CHARS)));
  let lineChars = Math.min(MAX_LINE_CHARS, Math.floor(room / fit) - 4);
  let text = render(skills, fit, lineChars);
  while (addedTokens(text) > SKILLS_TOKEN_BUDGET && (lineChars > MIN_LINE_CHARS || fit > 1)) {
    if (lineChars > MIN_LINE_CHARS) lineChars = Math.max(MIN_LINE_CHARS, lineChars - 4);
    else fit -= 1;
    text = render(skills, fit, lineChars);
  }
  return { text, tool: { ...LOAD_SKILL_TOOL }, listed: fit, tokens: addedTokens(text) };
}
