import type { CliDeps, Session } from './context.js';
import { shellEditor } from './editor.js';
import { inquirerPrompter } from './prompter.js';
import { connect as connectSession } from './session.js';

export type BaseDeps = Omit<CliDeps, 'api' | 'prompter' | 'editor'>;

/**
 * The real dependencies around `base` (streams, environment, clock, signal): the service
 * client configured from the global options, the terminal's prompts and $EDITOR. `replace`
 * swaps any of them (tests).
 */
export function systemDeps(base: BaseDeps, replace: Partial<Pick<CliDeps, 'api' | 'prompter' | 'editor'>> = {}): CliDeps {
  // One client per command: asked again with the same options, the same session.
  const sessions = new Map<string, Promise<Session>>();
  const deps: CliDeps = {
    ...base,
    api: (options, tuning) => {
      const connect = () => connectSession(options, deps, tuning);
      if (tuning !== undefined) return connect();
      const key = JSON.stringify(options);
      let session = sessions.get(key);
      if (session === undefined) sessions.set(key, (session = connect()));
      return session;
    },
    prompter: inquirerPrompter(base.io, base.signal),
    editor: shellEditor(base.env, base.io),
    ...replace,
  };
  return deps;
}
