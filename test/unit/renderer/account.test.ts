import { describe, expect, it } from 'vitest';
import { loginTestNeeds } from '../../../src-renderer/lib/account.ts';

describe('what Test login still needs', () => {
  it('names what is missing, and says why a contact', () => {
    expect(loginTestNeeds({ login: '', password: '', contact: '' })).toBe(
      'Test login needs a login, a password and a contact: every request Trackwatch sends to Nadeo names who runs it (their request to tools), so a test login sends one too.',
    );
    expect(loginTestNeeds({ login: 'svc', password: '', contact: 'me@example.com' })).toBe('Test login needs a password.');
    expect(loginTestNeeds({ login: 'svc', password: '', contact: 'me@example.com', passwordStored: true })).toBe('');
    expect(loginTestNeeds({ login: 'svc', password: 'pw', contact: 'me@x' })).toBe('');
    expect(loginTestNeeds({ login: 'svc', password: 'pw', contact: ' m ' })).toMatch(/^Test login needs a contact: /);
  });
});
