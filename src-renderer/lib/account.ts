// What "Test login" needs before it can run, said in words next to the button instead of a silent disabled state.

/** The fields of a login form, as typed; `passwordStored` when a saved password stands in for an empty field. */
export interface LoginFields {
  login: string;
  password: string;
  contact: string;
  passwordStored?: boolean;
}

/** Why "Test login" cannot run yet, as one sentence; '' when it can. */
export function loginTestNeeds(fields: LoginFields): string {
  const missing = [
    !fields.login.trim() && 'a login',
    !fields.password && !fields.passwordStored && 'a password',
    fields.contact.trim().length < 3 && 'a contact',
  ].filter((m): m is string => Boolean(m));
  if (missing.length === 0) return '';
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  const why = missing.includes('a contact')
    ? ': every request Trackwatch sends to Nadeo names who runs it (their request to tools), so a test login sends one too.'
    : '.';
  return `Test login needs ${list}${why}`;
}
