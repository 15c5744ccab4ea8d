--
-- walpressure.live: columns, what the commit probe counts, reset().
-- The instance runs with autovacuum off, so this session is the only one
-- that commits and the counts are exact.
--
CREATE EXTENSION walpressure CASCADE;

\d walpressure.live

-- two rows, in a fixed order
SELECT period FROM walpressure.live;

SELECT walpressure.reset();
SELECT period, commits, leader_pct, commits_per_s FROM walpressure.live;

-- read-only transactions and rolled-back ones are not commits
SELECT 1 AS read_only;
BEGIN;
CREATE TABLE wp_rolled_back (i int);
ROLLBACK;
SELECT commits FROM walpressure.live WHERE period = 'since reset';

-- each autocommitted write is one commit, a transaction block is one
CREATE TABLE wp_t (i int);
INSERT INTO wp_t VALUES (1);
INSERT INTO wp_t VALUES (2);
BEGIN;
INSERT INTO wp_t VALUES (3);
INSERT INTO wp_t VALUES (4);
COMMIT;
SELECT commits FROM walpressure.live WHERE period = 'since reset';

-- commit latency is measured for each of them, and ordered
SELECT commit_avg_ms > 0 AS avg_positive,
       commit_p50_ms > 0 AS p50_positive,
       commit_p50_ms <= commit_p99_ms AS p50_le_p99
FROM walpressure.live WHERE period = 'since reset';

-- with synchronous_commit off a committing backend never flushes the WAL
-- itself: no leaders.  (On 18 and later the probe tells leaders only in
-- sessions with walpressure.exact_leaders on, as every sweep's clients are;
-- before 18 always, so the setting makes the figures the same everywhere.)
SET walpressure.exact_leaders = on;
SELECT walpressure.reset();
SET synchronous_commit = off;
INSERT INTO wp_t VALUES (5);
INSERT INTO wp_t VALUES (6);
RESET synchronous_commit;
SELECT commits, leader_pct, fsync_p50_ms FROM walpressure.live
WHERE period = 'since reset';

-- pg_regress runs its instance with fsync off (postgres -F): a flush then
-- issues no fsync, so even with synchronous_commit on no commit leads one.
-- (Leaders under fsync on are checked by the TAP suite.)
SHOW fsync;
SELECT walpressure.reset();
INSERT INTO wp_t VALUES (7);
INSERT INTO wp_t VALUES (8);
INSERT INTO wp_t VALUES (9);
SELECT commits, leader_pct, leader_fsyncs, fsync_p50_ms
FROM walpressure.live WHERE period = 'since reset';

-- right after a reset both periods start at the reset
SELECT count(DISTINCT since) FROM walpressure.live;

DROP TABLE wp_t;
