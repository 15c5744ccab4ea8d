-- The configuration parameters and their guards.
BEGIN;
SELECT plan(24);

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
SELECT is((SELECT context || ' ' || boot_val || ' ' || min_val || '..' || max_val FROM pg_settings
           WHERE name = 'walpressure.equivalence_margin'),
          'user 2 0.1..50', 'equivalence_margin: any session sets it, 2% unless set, 0.1 to 50');
SELECT throws_ok('SET walpressure.equivalence_margin = 0', '22023', NULL,
                 'an equivalence margin of 0 is refused');
SELECT lives_ok('SET LOCAL walpressure.equivalence_margin = 5', 'a session may widen it');

-- the settings a sweep varies: each exists, and its context fits how it is applied
SELECT is((SELECT count(*)::int FROM pg_settings WHERE name = ANY (walpressure.sweepable_settings())),
          cardinality(walpressure.sweepable_settings()), 'every sweepable setting exists');
SELECT is((SELECT array_agg(DISTINCT context) FROM pg_settings
           WHERE name = ANY (walpressure.sweepable_server_settings())),
          ARRAY['sighup'], 'the server-wide ones take effect on a reload');
SELECT ok((SELECT array_agg(DISTINCT context) FROM pg_settings
           WHERE name = ANY (walpressure.sweepable_settings())
             AND NOT name = ANY (walpressure.sweepable_server_settings())) <@ ARRAY['user', 'superuser'],
          'the others a session sets for itself');

-- what a crash can lose
SELECT is(walpressure._data_loss('fsync', 'off'), 'fsync=off', 'fsync off is labelled');
SELECT is(walpressure._data_loss('full_page_writes', 'false'), 'full_page_writes=off', 'full_page_writes false is labelled');
SELECT is(walpressure._data_loss('synchronous_commit', 'off'), 'synchronous_commit=off', 'synchronous_commit off is labelled');
SELECT is(walpressure._data_loss('synchronous_commit', 'local'), NULL, 'synchronous_commit local loses nothing a crash can take');
SELECT is(walpressure._data_loss('fsync', 'on'), NULL, 'fsync on is safe');
SELECT is(walpressure._int_setting('1.5'), 2, 'an integer setting read as the GUC machinery does: 1.5 is 2');
SELECT is(walpressure._int_setting('1e1'), 10, '1e1 is 10');
SELECT is(walpressure._int_setting('0x5'), 5, '0x5 is 5');
SELECT is(walpressure._int_setting('five'), NULL, 'not an integer: NULL, not an error');

SELECT * FROM finish();
ROLLBACK;
