--
-- The rows of a running sweep stay: a trigger refuses to delete them.
--

-- A running sweep's row stays: its coordinator writes to it until the end.
-- Rows of sweeps that ended, or whose coordinator is gone, may go.
CREATE OR REPLACE FUNCTION _sweeps_keep_running()
RETURNS trigger
AS 'MODULE_PATHNAME', 'wp_sweeps_keep_running'
LANGUAGE C;

CREATE OR REPLACE TRIGGER keep_running BEFORE DELETE ON sweeps
    FOR EACH ROW EXECUTE FUNCTION _sweeps_keep_running();
CREATE OR REPLACE TRIGGER keep_running_truncate BEFORE TRUNCATE ON sweeps
    FOR EACH STATEMENT EXECUTE FUNCTION _sweeps_keep_running();
