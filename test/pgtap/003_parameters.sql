-- The configuration parameters and their guards.
BEGIN;
SELECT plan(9);

SELECT is((SELECT context FROM pg_settings WHERE name = 'walpressure.sample_interval'),
          'sighup', 'sample_interval is reloadable');
SELECT is((SELECT unit FROM pg_settings WHERE name = 'walpressure.sample_interval'),
          'ms', 'sample_interval is in milliseconds');
SELECT is((SELECT boot_val FROM pg_settings WHERE name = 'walpressure.sample_interval'),
          '1000', 'sample_interval defaults to one second');
SELECT is((SELECT context FROM pg_settings WHERE name = 'walpressure.sample_history'),
          'postmaster', 'sample_history needs a restart');
SELECT is((SELECT boot_val FROM pg_settings WHERE name = 'walpressure.sample_history'),
          '3600', 'sample_history defaults to an hour of samples');
SELECT is((SELECT min_val || '..' || max_val FROM pg_settings WHERE name = 'walpressure.sample_interval'),
          '100..3600000', 'sample_interval range');

SELECT throws_ok('SET walpressure.sample_interval = 500', '55P02', NULL,
                 'sample_interval cannot be set in a session');
SELECT throws_ok('SET walpressure.sample_history = 10', '55P02', NULL,
                 'sample_history cannot be set in a session');
SELECT throws_ok('SET walpressure.typo = 1', '42602', NULL,
                 'the walpressure prefix is reserved');

SELECT * FROM finish();
ROLLBACK;
