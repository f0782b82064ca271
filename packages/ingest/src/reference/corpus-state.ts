import type { LogEvent } from '@mem/core';

/** A registered corpus: where its files are and which of them it reads. */
export interface CorpusRegistration {
  name: string;
  root: string;
  globs: string[];
}

/** Source URI → the shas of its live passages. */
export type LiveSources = Map<string, Set<string>>;

/** What a project's log says about its reference corpora: a fold, rebuilt on every command. */
export interface CorpusState {
  corpora: Map<string, CorpusRegistration>;
  /** Corpus name → its live passages by source (a removed corpus keeps none). */
  live: Map<string, LiveSources>;
  /** Every tombstoned sha of the project: the projections never show that text again. */
  tombstoned: Set<string>;
}

export function emptyCorpusState(): CorpusState {
  return { corpora: new Map(), live: new Map(), tombstoned: new Set() };
}

function sourcesOf(state: CorpusState, corpus: string): LiveSources {
  let sources = state.live.get(corpus);
  if (!sources) state.live.set(corpus, (sources = new Map<string, Set<string>>()));
  return sources;
}

/** Folds one logged event into `state` (in place). Events other than these four change nothing. */
export function foldCorpusEvent(state: CorpusState, event: LogEvent): void {
  switch (event.type) {
    case 'corpus_registered':
      state.corpora.set(event.name, {
        name: event.name,
        root: event.root,
        globs: [...event.globs],
      });
      sourcesOf(state, event.name);
      return;
    case 'corpus_removed':
      state.corpora.delete(event.name);
      state.live.delete(event.name);
      return;
    case 'reference': {
      // A reference outside any corpus (an eval store) is no corpus's to sync.
      if (event.corpus === undefined || state.tombstoned.has(event.sha256)) return;
      const sources = sourcesOf(state, event.corpus);
      const shas = sources.get(event.source) ?? new Set<string>();
      shas.add(event.sha256);
      sources.set(event.source, shas);
      return;
    }
    case 'tombstone':
      state.tombstoned.add(event.target);
      for (const sources of state.live.values())
        for (const [uri, shas] of sources) {
          shas.delete(event.target);
          if (shas.size === 0) sources.delete(uri);
        }
      return;
    default:
      return;
  }
}
