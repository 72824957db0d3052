// Debian's Chromium (or the one CHROMIUM_PATH names) and the flags that run it headless on these machines.
export const CHROMIUM = process.env.CHROMIUM_PATH || process.env.TRACKWATCH_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
