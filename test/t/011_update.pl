# Every earlier release updates to the current version: ALTER EXTENSION
# walpressure UPDATE from each gives the catalog of a fresh install
# (functions, views, tables, columns, comments, grants), and the user's
# sweeps and steps survive it.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use WalPressure::Test;

my $node = new_node('update', conf => [ max_worker_processes => 16 ], extension => 0);

my $current = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'walpressure'});
# the earlier releases installed beside it that an update path leads from
my @older = split /\n/, $node->safe_psql('postgres', qq{
SELECT source FROM pg_extension_update_paths('walpressure')
WHERE target = '$current' AND path IS NOT NULL
ORDER BY string_to_array(source, '.')::int[]});
note "current $current; earlier releases: @older";
ok(scalar @older >= 1, "at least one earlier release is installed to update from (current $current)");

# What a DBA sees of the extension, as text: every member object with its
# definition, columns, comment and privileges (not data, not OIDs).
my $catalog = q{
WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'walpressure'),
members AS (
  SELECT d.classid, d.objid FROM pg_depend d, ext
  WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e')
SELECT string_agg(line, E'\n' ORDER BY line) FROM (
  SELECT 'function ' || p.oid::regprocedure || ' returns ' || pg_get_function_result(p.oid)
         || ' ' || p.provolatile::text || p.proparallel::text || p.prosecdef::text || p.proisstrict::text
         || ' acl ' || coalesce(p.proacl::text, 'default')
         || ' comment ' || coalesce(obj_description(p.oid, 'pg_proc'), '-')
         || ' body ' || md5(CASE WHEN p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c') THEN p.prosrc ELSE pg_get_functiondef(p.oid) END) AS line
  FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
  UNION ALL
  SELECT c.relkind::text || ' ' || c.oid::regclass
         || ' acl ' || coalesce(c.relacl::text, 'default')
         || ' comment ' || coalesce(obj_description(c.oid, 'pg_class'), '-')
         || CASE WHEN c.relkind = 'v' THEN ' view ' || md5(pg_get_viewdef(c.oid)) ELSE '' END
  FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
  UNION ALL
  SELECT 'column ' || c.oid::regclass || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
         || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
         || coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')
         || ' acl ' || coalesce(a.attacl::text, 'default')
         || ' comment ' || coalesce(col_description(c.oid, a.attnum), '-')
  FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
  UNION ALL
  SELECT 'constraint ' || conrelid::regclass || ' ' || pg_get_constraintdef(con.oid)
  FROM members m JOIN pg_constraint con ON m.classid = 'pg_class'::regclass AND con.conrelid = m.objid
  UNION ALL
  SELECT 'index ' || pg_get_indexdef(i.indexrelid)
  FROM members m JOIN pg_index i ON m.classid = 'pg_class'::regclass AND i.indrelid = m.objid
  UNION ALL
  SELECT 'trigger ' || pg_get_triggerdef(tg.oid)
  FROM members m JOIN pg_trigger tg ON m.classid = 'pg_class'::regclass AND tg.tgrelid = m.objid AND NOT tg.tgisinternal
  UNION ALL
  SELECT 'type ' || t.oid::regtype FROM members m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND m.objid = t.oid
) l};

$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', 'CREATE EXTENSION walpressure CASCADE');
my $fresh = $node->safe_psql('fresh', $catalog);
ok(length($fresh) > 1000, 'a fresh install\'s catalog is described');

for my $old (@older)
{
	my $db = "from_$old";
	$db =~ s/\./_/g;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, "CREATE EXTENSION walpressure VERSION '$old' CASCADE");
	$node->safe_psql($db, 'SELECT walpressure.init_pgbench(1)');
	# the user's data: a real sweep of the old version
	my $id = $node->safe_psql($db, q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5', '6'], clients => 1, duration => '1 s',
                             warmup => '0 s', prewarm => false, label => 'before the update')});
	my $data_sql = qq{SELECT s.status || ' ' || s.label || ' ' || count(st.*) || ' ' || sum(st.tps)::numeric(12,3)
FROM walpressure.sweeps s JOIN walpressure.steps st USING (sweep_id) WHERE s.sweep_id = $id GROUP BY s.status, s.label};
	my $before = $node->safe_psql($db, $data_sql);
	like($before, qr/^done before the update 2 /, "$old: a sweep recorded before the update");

	# a role the DBA let run sweeps keeps that right across the update
	$node->safe_psql($db, qq{
DO \$\$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'regress_sweeper') THEN CREATE ROLE regress_sweeper; END IF; END \$\$;
GRANT USAGE ON SCHEMA walpressure TO regress_sweeper;
SELECT format('GRANT EXECUTE ON FUNCTION %s TO regress_sweeper', p.oid::regprocedure)
FROM pg_proc p WHERE p.proname = 'run_sweep' AND p.pronamespace = 'walpressure'::regnamespace \\gexec});
	$node->safe_psql($db, 'ALTER EXTENSION walpressure UPDATE');
	is($node->safe_psql($db, q{
SELECT string_agg(has_function_privilege('regress_sweeper', p.oid, 'EXECUTE')::text, ',')
FROM pg_proc p WHERE p.proname = 'run_sweep' AND p.pronamespace = 'walpressure'::regnamespace}),
		'true', "$old: the role granted run_sweep before the update may run it after");
	$node->safe_psql($db, q{
SELECT format('REVOKE EXECUTE ON FUNCTION %s FROM regress_sweeper', p.oid::regprocedure)
FROM pg_proc p WHERE p.proname = 'run_sweep' AND p.pronamespace = 'walpressure'::regnamespace \gexec
REVOKE USAGE ON SCHEMA walpressure FROM regress_sweeper;});
	is($node->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'walpressure'}),
		$current, "$old: ALTER EXTENSION walpressure UPDATE reaches $current");
	my $updated = $node->safe_psql($db, $catalog);
	is($updated, $fresh, "$old updated to $current: the same catalog as a fresh install of $current")
	  or diag(join("\n", grep { my $l = $_; index($fresh, $l) < 0 } split /\n/, $updated));
	is($node->safe_psql($db, $data_sql), $before, "$old: its sweep and steps survive the update");
	is($node->safe_psql($db, "SELECT count(*) FROM walpressure.results WHERE sweep_id = $id"), '2',
		"$old: results reads the old sweep after the update");
	my ($ret, $out, $err) = $node->psql($db, q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '1 s',
                             warmup => '0 s', prewarm => false)});
	is($ret, 0, "$old: a sweep runs after the update") or diag($err);
}

done_testing();
