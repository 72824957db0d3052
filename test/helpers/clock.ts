/**
 * The moment every generated test dataset is as of (generateDataset's required `now`): a fixed instant, so two
 * datasets generated a second apart are the same bytes and a failure prints the same dates on every run.
 * Mid-November 2026, in the Fall 2026 campaign, with the month's Track of the Day played to the 15th.
 */
export const DATA_NOW = Date.parse('2026-11-15T20:00:00Z');
