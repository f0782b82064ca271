-- Issue 13 §1: curated items (rule, fact, task, thread, reminder) are recalled by similarity
-- too. An item's one text vector sits in memory_vector at level 'I' under the item's node sha
-- (the item store's: sha256 of project NUL seq of its item_added), so a vector hit is the node
-- the keyword leg knows. Its text is the item store's: the summary, then a blank line and the
-- detail. An archived item (attention `archive`) keeps its vector, not live, until it is active
-- again; a deleted item has none (find_items never returns it, whatever is asked).
--
-- Why the shell passes each write's text and vector: an update may set only the detail, so the
-- new text depends on rows applied earlier, and embedding happens before the transaction opens
-- (an embedder may be a remote model). The shell folds the batch over the rows it read; each
-- function checks the text it computes is the one embedded, so a disagreement fails the batch
-- instead of leaving a vector of another text.
CREATE TABLE {{schema}}.memory_item (
  project    TEXT    NOT NULL,
  id         TEXT    NOT NULL,
  sha256     TEXT    NOT NULL,
  summary    TEXT    NOT NULL,
  detail     TEXT,
  archived   BOOLEAN NOT NULL,
  seq        INTEGER NOT NULL,
  deleted_at TEXT,
  PRIMARY KEY (project, id)
);

CREATE FUNCTION {{schema}}.item_text(p_summary text, p_detail text)
RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT p_summary || COALESCE(E'\n\n' || p_detail, '')
$$;

CREATE FUNCTION {{schema}}.check_item_text(p_project text, p_id text, p_stored text, p_embedded text)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_embedded IS DISTINCT FROM p_stored THEN
    RAISE EXCEPTION 'item % of project % holds other text than the batch embedded for it', p_id, p_project;
  END IF;
END $$;

-- First occurrence of an id wins (an id follows from its item_added's seq).
CREATE FUNCTION {{schema}}.insert_item(
  p_project text, p_id text, p_sha text, p_summary text, p_detail text, p_seq integer, p_text text, p_embedding text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO {{schema}}.memory_item (project, id, sha256, summary, detail, archived, seq, deleted_at)
  VALUES (p_project, p_id, p_sha, p_summary, p_detail, false, p_seq, NULL)
  ON CONFLICT (project, id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM {{schema}}.check_item_text(p_project, p_id, {{schema}}.item_text(p_summary, p_detail), p_text);
  INSERT INTO {{schema}}.memory_vector (project, level, node_sha, kind, live, embedding)
  VALUES (p_project, 'I', p_sha, 'text', true, p_embedding::vector)
  ON CONFLICT DO NOTHING;
END $$;

-- The summary and detail an update sets (NULL: kept). A changed text replaces the vector, live
-- unless archived; a deleted item's text changes but gets no vector back.
CREATE FUNCTION {{schema}}.update_item_text(
  p_project text, p_id text, p_summary text, p_detail text, p_text text, p_embedding text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  item {{schema}}.memory_item%ROWTYPE;
  new_text text;
BEGIN
  SELECT * INTO item FROM {{schema}}.memory_item i WHERE i.project = p_project AND i.id = p_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  UPDATE {{schema}}.memory_item i SET summary = COALESCE(p_summary, i.summary), detail = COALESCE(p_detail, i.detail)
  WHERE i.project = p_project AND i.id = p_id
  RETURNING {{schema}}.item_text(i.summary, i.detail) INTO new_text;
  PERFORM {{schema}}.check_item_text(p_project, p_id, new_text, p_text);
  IF new_text = {{schema}}.item_text(item.summary, item.detail) OR item.deleted_at IS NOT NULL THEN
    RETURN;
  END IF;
  DELETE FROM {{schema}}.memory_vector v WHERE v.project = p_project AND v.level = 'I' AND v.node_sha = item.sha256;
  INSERT INTO {{schema}}.memory_vector (project, level, node_sha, kind, live, embedding)
  VALUES (p_project, 'I', item.sha256, 'text', NOT item.archived, p_embedding::vector);
END $$;

-- Archive hides the vector, any other tier shows it again.
CREATE FUNCTION {{schema}}.set_item_attention(p_project text, p_id text, p_archived boolean)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE {{schema}}.memory_item i SET archived = p_archived WHERE i.project = p_project AND i.id = p_id;
  UPDATE {{schema}}.memory_vector v SET live = NOT p_archived
  WHERE v.project = p_project AND v.level = 'I'
    AND v.node_sha = (SELECT i.sha256 FROM {{schema}}.memory_item i WHERE i.project = p_project AND i.id = p_id);
END $$;

-- A soft delete, as in the item store: the flag stays, the vector goes.
CREATE FUNCTION {{schema}}.delete_item(p_project text, p_id text, p_ts text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE {{schema}}.memory_item i SET deleted_at = COALESCE(i.deleted_at, p_ts) WHERE i.project = p_project AND i.id = p_id;
  DELETE FROM {{schema}}.memory_vector v
  WHERE v.project = p_project AND v.level = 'I'
    AND v.node_sha = (SELECT i.sha256 FROM {{schema}}.memory_item i WHERE i.project = p_project AND i.id = p_id);
END $$;
