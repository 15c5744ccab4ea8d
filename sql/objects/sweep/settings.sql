--
-- What a sweep may vary or fix, and the settings as the views read them.
--

-- The settings a sweep can vary, or fix for all its steps.
CREATE OR REPLACE FUNCTION sweepable_settings()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_settings'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION sweepable_settings() IS 'The settings a sweep can vary (run_sweep''s setting) or fix for every step (keys of its settings).';

-- Those of sweepable_settings() applied to the whole server (ALTER SYSTEM and
-- a reload) and restored when the sweep ends.
CREATE OR REPLACE FUNCTION sweepable_server_settings()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_server_settings'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION sweepable_server_settings() IS 'The settings of sweepable_settings() a sweep applies to the whole server, with ALTER SYSTEM and a reload, and always puts back.';

-- The pseudo-parameters a sweep can vary: the load itself.
-- round_trip_us: the emulated client round trip before each statement.
CREATE OR REPLACE FUNCTION sweepable_load()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_load'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION sweepable_load() IS 'The pseudo-parameters a sweep can vary that are the load itself, not a server setting.';

-- What a crash with this value can lose: 'fsync=off', 'full_page_writes=off',
-- 'synchronous_commit=off', or NULL.
CREATE OR REPLACE FUNCTION _data_loss(setting text, value text)
RETURNS text
AS 'MODULE_PATHNAME', 'wp_data_loss_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- An integer setting's value as the GUC machinery reads it ('1.5', '1e1',
-- '0x5' are 2, 10, 5), NULL when it is not one: for the views.
CREATE OR REPLACE FUNCTION _int_setting(value text)
RETURNS int
AS 'MODULE_PATHNAME', 'wp_int_setting_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
