--
-- Run against a server that does not preload walpressure: the extension
-- installs, and every function says what is missing.
--
CREATE EXTENSION walpressure CASCADE;
SELECT * FROM walpressure.live;
SELECT * FROM walpressure.samples;
SELECT walpressure.reset();
-- the interval parameter exists in every session; the others need the preload
SHOW walpressure.sample_interval;
DROP EXTENSION walpressure;
