--
-- The fleet without a server: what a member's answers become here (typed,
-- each text one line without controls or formatting characters), and the
-- functions that write the fleet's rows refusing every call but
-- fleet_run()'s or fleet_collect()'s, whoever makes it.
--
\set SHOW_CONTEXT never
\pset null '(null)'

-- a member's texts with ESC, BEL, U+009B (CSI), U+202E (RLO), U+200B
SELECT convert_from('\x1b5b306d'::bytea, 'UTF8') AS esc,
       convert_from('\x07'::bytea, 'UTF8') AS bel,
       convert_from('\xc29b'::bytea, 'UTF8') AS csi,
       convert_from('\xe280ae'::bytea, 'UTF8') AS rlo,
       convert_from('\xe2808b'::bytea, 'UTF8') AS zwsp \gset

-- who it is: each text one cleaned line, the pid a number or NULL, progress a boolean
SELECT walpressure._fleet_who(jsonb_build_object(
    'pid', 42, 'role', 'r' || :'esc', 'database', 'db' || :'bel' || :'rlo' || 'evil' || :'zwsp',
    'server_version', '15' || :'csi' || '2J', 'system_identifier', '7000000000000000001',
    'walpressure', '0.7.0', 'progress', true)) AS who;
SELECT walpressure._fleet_who('{"pid": "42", "progress": "yes", "role": {"a": 1}}') AS who;
SELECT walpressure._fleet_who('[1, 2]') AS who, walpressure._fleet_who('"a string"') AS scalar;

-- why it cannot take part
SELECT walpressure._fleet_refusal('x', walpressure._fleet_who('{"pid": 1, "system_identifier": "1; DROP TABLE t"}'));
SELECT walpressure._fleet_refusal('x', walpressure._fleet_who(jsonb_build_object(
    'pid', 1, 'system_identifier', '1', 'database', 'db' || :'esc' || '[2J')));
SELECT walpressure._fleet_refusal('x', walpressure._fleet_who(jsonb_build_object(
    'pid', 1, 'system_identifier', '1', 'walpressure', '0.6.9' || :'rlo')));

-- where its sweep is: numbers that are numbers, a time that is one
SELECT walpressure._fleet_watched(jsonb_build_object(
    'sweep_id', 7, 'step', 1, 'steps_done', -1, 'steps_total', 1e12, 'value', '0' || :'esc',
    'phase', 'measured' || :'bel' || ' window' || :'rlo', 'estimated_end', '2999-13-45 99:00:00')) AS progress;
SELECT walpressure._fleet_watched('{"step": "1", "estimated_end": "2026-11-28 08:00:00+00"}') AS progress;
SELECT walpressure._fleet_watched('"not an object"') AS progress;

-- a member's SQLSTATE: its own, but a cancel's, an intervention's or an assertion's
SELECT s, walpressure._fleet_sqlstate(s)
FROM unnest(ARRAY['42501', '08006', '57014', '57P01', 'P0004', 'abcde', '1234', NULL]) AS s;

-- an error as one line
SELECT walpressure._fleet_error('boom' || :'esc' || '[2J', 'by ' || :'rlo' || 'me', NULL);

-- the functions the fleet's SQL writes through refuse every call from outside
-- fleet_run() and fleet_collect(), a superuser's too
SELECT walpressure._fleet_member_set(1, 'x', '{"state": "cancelled"}');
SELECT walpressure._fleet_member_set(1, 'x', '{"cancel_requested": true}');
SELECT walpressure._fleet_member_set(1, 'x', '{"sweep_id": 1}');
SELECT walpressure._fleet_member_set(1, 'x', '[]');
SELECT walpressure._fleet_run_end(1, 'done');
SELECT walpressure._fleet_run_end(1, 'running');
SELECT walpressure._fleet_in_call(1);
SELECT walpressure._fleet_in_call(NULL);
SELECT walpressure._fleet_answered('x', '{}');
SELECT walpressure._fleet_gather('x', 1, NULL, '{}');
SELECT walpressure._fleet_gather(NULL, 1, NULL, '{}');

-- an operator with the guide's grants writes no table of the fleet, and
-- reaches the writers only through those checks
CREATE ROLE regress_fleet_operator;
GRANT USAGE ON SCHEMA walpressure TO regress_fleet_operator;
GRANT EXECUTE ON PROCEDURE walpressure.fleet_run(jsonb, text[], interval, bigint),
                           walpressure._fleet_run(bigint, text[], jsonb, text, interval) TO regress_fleet_operator;
GRANT EXECUTE ON FUNCTION walpressure.fleet_register(text, bool), walpressure.fleet_collect(text[]),
                          walpressure._fleet_collect(text[]), walpressure.fleet_cancel(bigint, text[]) TO regress_fleet_operator;
GRANT SELECT ON walpressure.fleet_servers, walpressure.fleet_runs, walpressure.fleet_members,
                walpressure.fleet_sweeps, walpressure.fleet_progress TO regress_fleet_operator;
INSERT INTO walpressure.fleet_runs (run_id, sweep, servers, lost_after, run_by, status)
VALUES (900, '{}', '{x}', '60 s', 'someone_else', 'running');
INSERT INTO walpressure.fleet_members (run_id, server) VALUES (900, 'x');
SET ROLE regress_fleet_operator;
UPDATE walpressure.fleet_members SET cancel_requested = true WHERE run_id = 900;
UPDATE walpressure.fleet_runs SET run_by = current_user WHERE run_id = 900;
INSERT INTO walpressure.fleet_servers (server) VALUES ('x');
INSERT INTO walpressure.fleet_sweeps VALUES ('x', 1, now(), '1', 1, 900);
INSERT INTO walpressure.sweeps (sweep_id) VALUES (900);
SELECT nextval('walpressure.fleet_runs_run_id_seq');
SELECT walpressure.fleet_cancel(900);
SELECT walpressure._fleet_member_set(900, 'x', '{"state": "cancelled"}');
SELECT walpressure._fleet_run_end(900, 'cancelled');
CALL walpressure._fleet_run(900, '{x}', '{}', 'SELECT 1', '5 s');
SELECT * FROM walpressure._fleet_collect('{x}');
SELECT walpressure._fleet_write_server('x', '{}');
RESET ROLE;
SELECT state, cancel_requested FROM walpressure.fleet_members WHERE run_id = 900;
SELECT run_by, status FROM walpressure.fleet_runs WHERE run_id = 900;
DELETE FROM walpressure.fleet_runs WHERE run_id = 900;
DROP OWNED BY regress_fleet_operator;
DROP ROLE regress_fleet_operator;
