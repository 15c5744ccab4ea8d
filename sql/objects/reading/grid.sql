--
-- Two settings swept together: the grid of their configurations.
--

-- A grid sweep's two settings and their values: a settings sweep whose every
-- value sets the same two settings, each to two values or more.  down is the
-- one that changes least often from one value to the next (the rows), across
-- the other (the columns); each one's values in the order they first come.
-- No row for any other sweep.
CREATE OR REPLACE FUNCTION _grid(sweep_id bigint,
                      OUT down text, OUT across text, OUT down_vals text[], OUT across_vals text[])
RETURNS SETOF record
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    vals text[];
    keys text[];
BEGIN
    SELECT w.vals INTO vals FROM walpressure.sweeps w
        WHERE w.sweep_id = _grid.sweep_id AND w.setting = 'settings';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT array_agg(DISTINCT k.k ORDER BY k.k) INTO keys
        FROM unnest(vals) v, jsonb_object_keys(v::jsonb) k;
    IF cardinality(keys) <> 2 OR EXISTS (SELECT 1 FROM unnest(vals) v
                                        WHERE NOT (v::jsonb ? keys[1] AND v::jsonb ? keys[2])
                                           OR (SELECT count(*) FROM jsonb_object_keys(v::jsonb)) <> 2) THEN
        RETURN;
    END IF;
    SELECT CASE WHEN sum((a IS DISTINCT FROM pa)::int) <= sum((b IS DISTINCT FROM pb)::int)
                THEN keys[1] ELSE keys[2] END INTO down
        FROM (SELECT v::jsonb->>keys[1] a, lag(v::jsonb->>keys[1]) OVER (ORDER BY i) pa,
                     v::jsonb->>keys[2] b, lag(v::jsonb->>keys[2]) OVER (ORDER BY i) pb
              FROM unnest(vals) WITH ORDINALITY t(v, i)) q;
    across := CASE WHEN down = keys[1] THEN keys[2] ELSE keys[1] END;
    down_vals := ARRAY(SELECT q.v FROM (SELECT v::jsonb->>down AS v, min(i) AS m
                                        FROM unnest(vals) WITH ORDINALITY t(v, i) GROUP BY 1) q ORDER BY q.m);
    across_vals := ARRAY(SELECT q.v FROM (SELECT v::jsonb->>across AS v, min(i) AS m
                                          FROM unnest(vals) WITH ORDINALITY t(v, i) GROUP BY 1) q ORDER BY q.m);
    IF cardinality(down_vals) >= 2 AND cardinality(across_vals) >= 2 THEN
        RETURN NEXT;
    END IF;
END
$$;

-- The values of a two-setting grid, for run_sweep('settings', ...): every
-- value of setting_a with every value of setting_b, setting_a's changing
-- least often (report() shows the tps as a table).
CREATE OR REPLACE FUNCTION grid(setting_a text, vals_a text[], setting_b text, vals_b text[])
RETURNS jsonb[]
LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT array_agg(jsonb_build_object(setting_a, a.v, setting_b, b.v) ORDER BY a.i, b.i)
    FROM unnest(vals_a) WITH ORDINALITY a(v, i), unnest(vals_b) WITH ORDINALITY b(v, i);
END;

COMMENT ON FUNCTION grid(text, text[], text, text[]) IS 'The values of a two-setting grid for run_sweep(''settings'', ...): every value of one setting with every value of another.';
