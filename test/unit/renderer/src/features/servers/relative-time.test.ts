import { describe, expect, it } from 'vitest';
import {
  formatCountdown,
  formatRelative,
} from '../../../../../../renderer/src/features/servers/relative-time.js';

const NOW = 1_800_000_000_000;
const s = (n: number) => NOW + n * 1000;

describe('formatRelative', () => {
  it('says how far ahead, coarsening with distance', () => {
    expect(formatRelative(s(40), NOW)).toBe('in 40 s');
    expect(formatRelative(s(58 * 60 + 10), NOW)).toBe('in 58 min');
    expect(formatRelative(s(65 * 60), NOW)).toBe('in 1 h 5 min');
    expect(formatRelative(s(2 * 3600), NOW)).toBe('in 2 h');
    expect(formatRelative(s(90 * 24 * 3600), NOW)).toBe('in 90 days');
  });

  it('says how long ago for the past, and "now" within a few seconds', () => {
    expect(formatRelative(s(-120), NOW)).toBe('2 min ago');
    expect(formatRelative(s(-3), NOW)).toBe('now');
    expect(formatRelative(s(2), NOW)).toBe('now');
  });
});

describe('formatCountdown', () => {
  it('shows minutes and zero-padded seconds, never below zero', () => {
    expect(formatCountdown(299.2)).toBe('5:00');
    expect(formatCountdown(61)).toBe('1:01');
    expect(formatCountdown(-4)).toBe('0:00');
  });
});
