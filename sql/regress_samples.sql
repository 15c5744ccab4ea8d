--
-- walpressure.samples: the sampler's ring (walpressure.sample_interval is
-- 200 ms in this instance).
--
\d walpressure.samples

SELECT walpressure.reset();

-- the ring was emptied by the reset and fills again
SELECT count(*) <= 1 AS emptied FROM walpressure.samples;

CREATE FUNCTION wp_wait_samples(n int) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..100 LOOP
        IF (SELECT count(*) FROM walpressure.samples) >= n THEN
            RETURN true;
        END IF;
        PERFORM pg_sleep(0.1);
    END LOOP;
    RETURN false;
END $$;

SELECT wp_wait_samples(3);

-- each row covers one interval (the first one after a reset starts at the
-- reset, so it is shorter) and the positions the WAL had at its end
SELECT bool_and(seconds BETWEEN 0.1 AND 0.6) AS interval_200ms
FROM (SELECT seconds FROM walpressure.samples ORDER BY sample_time OFFSET 1) s;
SELECT bool_and(seconds <= 0.6) AS first_within_interval,
       bool_and(flush_lsn <= insert_lsn) AS flushed_le_inserted,
       bool_and(waiting_walwrite_lock >= 0 AND waiting_other >= 0) AS waits_counted
FROM walpressure.samples;

-- samples come in time order
SELECT bool_and(sample_time > prev) AS ordered
FROM (SELECT sample_time, lag(sample_time) OVER (ORDER BY sample_time) AS prev
      FROM walpressure.samples) s
WHERE prev IS NOT NULL;

-- a commit shows up in the next sample
SELECT walpressure.reset();
CREATE TABLE wp_s (i int);
SELECT wp_wait_samples(2);
SELECT sum(commits) AS commits FROM walpressure.samples;
DROP TABLE wp_s;

-- the parameters
SHOW walpressure.sample_interval;
SHOW walpressure.sample_history;
SET walpressure.sample_interval = '1s';
SET walpressure.sample_history = 100;
SET walpressure.no_such_parameter = 1;

DROP FUNCTION wp_wait_samples(int);
