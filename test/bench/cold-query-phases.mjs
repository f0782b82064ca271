// One cold query, phase by phase, in this process (a child of cold-query.bench.mjs): the path
// `mem query --json` takes (packages/cli/src/query-deps.ts), timed between marks. Prints JSON.
import { performance } from 'node:perf_hooks';

const [root, text] = process.argv.slice(2);
const marks = {};
let last = performance.now();
const mark = (name) => {
  const now = performance.now();
  marks[name] = now - last;
  last = now;
};
marks.process_to_script = last; // since the process started (performance's time origin)
await import('../../packages/cli/dist/main.js');
mark('cli_imports');
const { loadConfig } = await import('../../packages/core/dist/index.js');
const config = loadConfig(process.env);
mark('config');
const { Engine } = await import('../../packages/engine/dist/index.js');
const { projectorSqlite, openItemStore, itemStorePath } =
  await import('../../packages/projector-sqlite/dist/index.js');
const { projectorVault } = await import('../../packages/projector-vault/dist/index.js');
const pg = await import('../../packages/projector-pgvector/dist/index.js');
const { embedderFromEnv } = await import('../../packages/embed/dist/index.js');
const { queryMemory } = await import('../../packages/query/dist/index.js');
mark('query_side_imports');
const engine = new Engine({
  root,
  projectors: [projectorSqlite, projectorVault, pg.projectorPgvector({ config })],
});
// As `mem query` opens it: a one-shot command, so PGlite starts on V8's baseline compiler.
const hold = await pg.holdEmbeddedPglite({
  stateDir: engine.paths.stateDir,
  config,
  quickStart: true,
});
mark('open_pglite');
await engine.catchUp();
mark('catch_up');
const items = openItemStore(itemStorePath(engine.paths.stateDir));
mark('open_sqlite');
const embedder = embedderFromEnv(config);
const vectors = await pg.openVectorRecall({
  stateDir: engine.paths.stateDir,
  config,
  expectEmbedder: embedder.name,
});
await hold.release();
mark('open_recall');
const [vector] = await embedder.embed([text], 'query');
mark('embed_query');
const answer = await queryMemory(
  { text, projects: ['demo'], limit: 5 },
  { items, vectors, embedder },
);
mark('recall');
const out = JSON.stringify(answer);
mark('output');
items.close();
await vectors.close();
mark('close');
void vector;
void out;
process.stdout.write(`${JSON.stringify(marks)}\n`);
