--
-- Deleting old sweeps.
--

-- Delete the sweeps that ended before now() - older_than, with their steps
-- and samples; a running sweep is never deleted.  Returns how many went.
CREATE OR REPLACE FUNCTION delete_sweeps(older_than interval)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_delete_sweeps'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION delete_sweeps(interval) IS 'Delete the sweeps that ended more than some time ago, with their steps, samples, statements and replication rows; never a running one.';
REVOKE ALL ON FUNCTION delete_sweeps(interval) FROM PUBLIC;
