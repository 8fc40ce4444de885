import type { CliDeps, Session } from './cmdutil/context.js';
import { shellEditor } from './iostreams/editor.js';
import { IOStreams, type Streams } from './iostreams/io.js';
import { inquirerPrompter } from './iostreams/prompter.js';
import { connect as connectSession } from './session/session.js';

export type BaseDeps = Omit<CliDeps, 'io' | 'api' | 'prompter' | 'editor'> & { streams: Streams };

/**
 * The real dependencies around `base` (streams, environment, clock, signal): the streams with
 * what the environment says of them (io), the service client configured from the global
 * options, the terminal's prompts and $EDITOR. `replace` swaps any of the last three (tests).
 */
export function systemDeps(base: BaseDeps, replace: Partial<Pick<CliDeps, 'api' | 'prompter' | 'editor'>> = {}): CliDeps {
  // One client per command: asked again with the same options, the same session.
  const sessions = new Map<string, Promise<Session>>();
  const { streams, ...rest } = base;
  const io = new IOStreams(streams, base.env);
  const deps: CliDeps = {
    ...rest,
    io,
    api: (options, tuning) => {
      const connect = () => connectSession(options, deps, tuning);
      if (tuning !== undefined) return connect();
      const key = JSON.stringify(options);
      let session = sessions.get(key);
      if (session === undefined) sessions.set(key, (session = connect()));
      return session;
    },
    prompter: inquirerPrompter(io, base.signal),
    editor: shellEditor(base.env, io),
    ...replace,
  };
  return deps;
}
