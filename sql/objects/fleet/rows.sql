--
-- Writing.  The fleet's rows are written as the extension's owner (an
-- operator needs no right on the tables but reading them), after the
-- caller's authority is checked in C: src/api/fleet_rows.c says how, and
-- holds the statements that write a run's rows, what a server answered
-- and a sweep it gathered.  The entry points write, and so do the four
-- gates below, which the fleet's SQL calls as the caller and which write
-- only within the fleet_run() or fleet_collect() call of this backend that
-- runs now.  Every text a server sent is cleaned once more as it is written.
--

CREATE OR REPLACE FUNCTION _fleet_in_call(run_id bigint)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_in_call'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION _fleet_in_call(bigint) IS 'Raises unless this is the fleet_run() call that runs run_id (NULL: a fleet_collect() call): what runs behind them connects to no server when called on its own';

CREATE OR REPLACE FUNCTION _fleet_member_set(run_id bigint, server text, changes jsonb)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_member_set'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_member_set(bigint, text, jsonb) IS 'A server''s row of the fleet run this fleet_run() call runs: the columns changes names (texts cleaned), written as the extension''s owner';

CREATE OR REPLACE FUNCTION _fleet_run_end(run_id bigint, status text)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_run_end'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_run_end(bigint, text) IS 'The fleet run this fleet_run() call runs ended: done or cancelled';

CREATE OR REPLACE FUNCTION _fleet_answered(server text, who jsonb)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_answered'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_answered(text, jsonb) IS 'What a server the caller may reach answered when fleet_run() or fleet_collect() asked who it is, in fleet_servers';

CREATE OR REPLACE FUNCTION _fleet_gather(server text, remote_id bigint, run_id bigint, doc jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_fleet_gather'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION _fleet_gather(text, bigint, bigint, jsonb) IS 'A server''s sweep, as its export() gave it to fleet_run() or fleet_collect(), imported here and keyed in fleet_sweeps by what import() made of it';
