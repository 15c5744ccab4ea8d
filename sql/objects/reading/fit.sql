--
-- Text for psql at 120 columns: a line cut to fit, a paragraph wrapped.
--

-- t in at most w characters: cut at a word when it can be, with an ellipsis.
CREATE OR REPLACE FUNCTION _fit(t text, w int DEFAULT 120)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN length(t) <= w THEN t
            ELSE coalesce(substring(left(t, w - 1) FROM '^(.*\S)\s+\S*$'), left(t, w - 1)) || '…' END;

-- t as lines of at most w characters, broken at spaces, each line after
-- the first indented by `indent` spaces; a word longer than a line is cut.
CREATE OR REPLACE FUNCTION _wrap(t text, w int DEFAULT 120, indent int DEFAULT 2)
RETURNS SETOF text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    line text := '';
    word text;
    lead text := '';
BEGIN
    FOREACH word IN ARRAY regexp_split_to_array(btrim(t), '\s+') LOOP
        WHILE length(lead || word) > w LOOP
            IF line <> '' THEN
                RETURN NEXT line;
                line := '';
            ELSE
                RETURN NEXT lead || left(word, w - length(lead));
                word := substr(word, w - length(lead) + 1);
            END IF;
            lead := repeat(' ', indent);
        END LOOP;
        IF line = '' THEN
            line := lead || word;
        ELSIF length(line) + 1 + length(word) <= w THEN
            line := line || ' ' || word;
        ELSE
            RETURN NEXT line;
            lead := repeat(' ', indent);
            line := lead || word;
        END IF;
    END LOOP;
    IF line <> '' THEN
        RETURN NEXT line;
    END IF;
END
$$;

-- parts joined by sep into lines of at most w characters, a new line
-- (starting with indent) before a part that would pass w; a part is never
-- broken (an argument of a call to copy stays whole).
CREATE OR REPLACE FUNCTION _join_wrapped(parts text[], sep text, w int, indent text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    out text := '';
    line text := '';
    p text;
BEGIN
    FOREACH p IN ARRAY parts LOOP
        IF line <> '' AND length(line) + length(sep) + length(p) > w THEN
            out := out || line || rtrim(sep) || E'\n';
            line := indent || p;
        ELSIF line = '' THEN
            line := p;
        ELSE
            line := line || sep || p;
        END IF;
    END LOOP;
    RETURN out || line;
END
$$;
