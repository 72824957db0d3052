import { describe, expect, it } from 'vitest';
import { formatPosition, formatPositionChange } from '../../../src-main/shared/format.ts';

describe('world positions as players read them', () => {
  it('a position with digit grouping, none as #-', () => {
    expect(formatPosition(1)).toBe('#1');
    expect(formatPosition(1234567)).toBe('#1,234,567');
    expect([null, undefined, 0, -3, Number.NaN].map(formatPosition)).toEqual(['#-', '#-', '#-', '#-', '#-']);
  });

  it('a change in places: up is a climb, down a drop, equal, or nothing to compare', () => {
    expect(formatPositionChange(1234, 987)).toBe('▲247');
    expect(formatPositionChange(40, 1052)).toBe('▼1,012');
    expect(formatPositionChange(12, 12)).toBe('=');
    expect(formatPositionChange(null, 12)).toBe('');
    expect(formatPositionChange(12, undefined)).toBe('');
  });
});
