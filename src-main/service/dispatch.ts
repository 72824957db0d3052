// The one door into the service: the IPC handler and the HTTP bridge both come through here.
import { commands } from '../contract/commands.ts';
import type { CallContext, Handlers } from '../contract/commands.ts';
import { isCommandName } from '../contract/names.ts';
import { errorResult, okResult } from '../contract/result.ts';
import type { Result } from '../contract/result.ts';
import { toErrorValue } from './errors.ts';
import { issueSentence } from './validation.ts';

/** Checks the name, parses the input with the contract's schema, runs the handler; never throws. `call.signal` ends work whose caller left. */
export async function dispatch(handlers: Handlers, name: unknown, rawInput: unknown, call?: CallContext): Promise<Result<unknown>> {
  if (typeof name !== 'string' || name === '') return errorResult('unknown_command', 'A request must name its command (a non-empty "name").');
  if (!isCommandName(name)) return errorResult('unknown_command', `Unknown command: ${name.slice(0, 80)}`);
  const parsed = commands[name].input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return errorResult('invalid_input', first ? issueSentence(first) : 'This request is not valid.');
  }
  try {
    const handler = handlers[name] as (input: unknown, call?: CallContext) => Promise<unknown>;
    return okResult(await (call === undefined ? handler(parsed.data) : handler(parsed.data, call)));
  } catch (error) {
    return { ok: false, error: toErrorValue(error) };
  }
}
