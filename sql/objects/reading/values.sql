--
-- A value as the readings use it: a number in the setting's unit, its unit, a configuration in words.
--

-- A value of a number setting in the setting's unit ('1s' of wal_writer_delay
-- is 1000: ms), or of a load parameter; NULL for the others.
CREATE OR REPLACE FUNCTION _setting_number(setting text, value text)
RETURNS float8
AS 'MODULE_PATHNAME', 'wp_setting_number_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- The unit of a setting's bare number, for the chart's x axis.
CREATE OR REPLACE FUNCTION _setting_unit(setting text)
RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE setting
    WHEN 'commit_delay' THEN 'microseconds'
    WHEN 'round_trip_us' THEN 'microseconds'
    WHEN 'commit_siblings' THEN 'other open transactions'
    WHEN 'checkpoint_completion_target' THEN 'fraction of checkpoint_timeout'
    WHEN 'clients' THEN 'clients'
    WHEN 'batch_size' THEN 'rows per commit'
    WHEN 'iops_cap' THEN 'write IOPS'
    ELSE (SELECT p.unit FROM pg_catalog.pg_settings p WHERE p.name = _setting_unit.setting) END;

-- A value as a chart labels it: a configuration's settings as name=value,
-- joined by sep ('{}': as is); any other value as it is.
CREATE OR REPLACE FUNCTION _value_label(setting text, value text, sep text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT CASE WHEN setting <> 'settings' THEN value
                WHEN value::jsonb = '{}' THEN 'as is'
                ELSE (SELECT string_agg(c.key || '=' || c.value, sep ORDER BY c.key)
                      FROM jsonb_each_text(value::jsonb) c) END;
END;
