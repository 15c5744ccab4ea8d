--
-- Reading a sweep: the best value, a text chart, an SVG.
--

-- The best value of each sweep, how to apply it, and what explains the curve.
CREATE VIEW best AS
WITH pick AS (
    -- the fastest value beyond noise, else the first value
    SELECT DISTINCT ON (r.sweep_id) r.*
    FROM results r
    ORDER BY r.sweep_id,
             CASE r.verdict WHEN 'faster' THEN 0 WHEN 'baseline' THEN 1 ELSE 2 END,
             r.tps DESC NULLS LAST
), per_sweep AS (
    SELECT st.sweep_id,
           max(st.clients) AS max_clients,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.iops_cap IS NOT NULL AND st.write_iops < 0.9 * st.iops_cap) AS below_cap,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.iops_cap IS NOT NULL AND st.write_iops >= 0.95 * st.iops_cap) AS at_cap,
           sum(st.checkpoints_timed + st.checkpoints_requested) AS checkpoints,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.checkpoints_timed + st.checkpoints_requested > 0) AS checkpoint_values,
           sum(st.wal_buffers_full) AS wal_buffers_full,
           string_agg(DISTINCT st.value, ', ') FILTER (WHERE st.wal_buffers_full > 0) AS wal_buffers_values,
           sum(st.retries) AS retries,
           string_agg(DISTINCT st.value || ': ' || st.data_loss, '; ') FILTER (
               WHERE st.data_loss IS NOT NULL) AS data_loss,
           count(*) FILTER (WHERE st.discarded IS NOT NULL) AS steps_discarded,
           string_agg(DISTINCT st.value, ', ') FILTER (WHERE st.discarded IS NOT NULL) AS discarded_values
    FROM steps st
    GROUP BY st.sweep_id
), diag AS (
    SELECT s.sweep_id,
           array_remove(ARRAY[
               CASE WHEN s.status <> 'done' THEN
                   format('the sweep is %s after %s of %s steps%s', s.status, s.steps_done, s.steps_total,
                          coalesce(': ' || s.error, '')) END,
               CASE WHEN (s.setting = 'commit_delay' OR s.settings ? 'commit_delay')
                         AND p.max_clients - 1 < coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                                                          walpressure._int_setting(s.server_settings->>'commit_siblings'), 5)
                   THEN format('commit_delay is inert: with %s clients at most %s other transactions are active, '
                               'fewer than commit_siblings = %s, so no commit ever waits (lower commit_siblings or add clients)',
                               p.max_clients, p.max_clients - 1,
                               coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                                        walpressure._int_setting(s.server_settings->>'commit_siblings'), 5)) END,
               CASE WHEN p.at_cap IS NOT NULL THEN
                   format('the disk cap was saturated at %s: throughput there is bound by write IOPS', p.at_cap) END,
               CASE WHEN p.below_cap IS NOT NULL THEN
                   format('the disk stayed below the cap at %s: the load was bound by CPU or by commit grouping there, not by the disk', p.below_cap) END,
               CASE WHEN p.checkpoints > 0 THEN
                   format('%s checkpoint(s) ran inside measured windows (at %s): their writes and the full-page images after them weigh on those steps',
                          p.checkpoints, p.checkpoint_values) END,
               CASE WHEN p.wal_buffers_full > 0 THEN
                   format('wal_buffers filled %s times (at %s): backends wrote WAL themselves; raise wal_buffers',
                          p.wal_buffers_full, p.wal_buffers_values) END,
               CASE WHEN p.retries > 0 THEN
                   format('%s transactions failed with a serialization failure or deadlock and were not retried', p.retries) END,
               CASE WHEN p.steps_discarded > 0 THEN
                   format('%s step(s) are left out of the figures (at %s): pgbench lost clients or ended early, or the server''s statistics were reset; see steps.discarded',
                          p.steps_discarded, p.discarded_values) END,
               CASE WHEN p.data_loss IS NOT NULL THEN
                   format('a crash can lose data with %s', p.data_loss) END,
               CASE WHEN NOT EXISTS (SELECT 1 FROM results r WHERE r.sweep_id = s.sweep_id
                                                                AND r.verdict IN ('faster', 'slower'))
                         AND (SELECT count(*) FROM results r WHERE r.sweep_id = s.sweep_id) > 1 THEN
                   'no value differs from the first beyond noise (95% intervals overlap): add repeats or duration to tell smaller effects apart' END
           ], NULL) AS lines
    FROM sweeps s
    JOIN per_sweep p USING (sweep_id)
)
SELECT s.sweep_id,
       s.label,
       s.setting,
       k.value,
       k.tps,
       k.speedup AS gain,
       k.speedup_ci_low AS gain_ci_low,
       k.speedup_ci_high AS gain_ci_high,
       k.verdict,
       CASE WHEN k.tps IS NULL THEN
                '-- no value has a step that counts'
            WHEN s.setting = ANY (walpressure.sweepable_load()) THEN
                format('-- %s is the load, not a server setting', s.setting)
            ELSE format('ALTER SYSTEM SET %I = %L; SELECT pg_reload_conf();', s.setting, k.value)
       END AS apply,
       array_to_string(d.lines, E'\n') AS diagnoses
FROM pick k
JOIN sweeps s USING (sweep_id)
JOIN diag d USING (sweep_id)
ORDER BY s.sweep_id;

COMMENT ON VIEW best IS
'Per sweep: the fastest value beyond noise (else the first), its gain with a 95% interval, the ALTER SYSTEM line that applies it, and diagnoses of the curve';

-- A text chart of a sweep for psql: a bar per value.
CREATE FUNCTION report(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    top float8;
    width int := 40;
    vw int;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = report.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', report.sweep_id USING ERRCODE = 'no_data_found';
    END IF;
    RETURN NEXT format('sweep %s%s: %s, %s, %s clients%s, %s x %s s, %s (%s/%s steps)',
                       s.sweep_id, coalesce(' "' || s.label || '"', ''), s.setting, s.workload, s.clients,
                       coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                       s.repeats, trim_scale(extract(epoch FROM s.duration)), s.status, s.steps_done, s.steps_total);
    SELECT max(x.tps), greatest(max(length(x.value)), length(s.setting))
        INTO top, vw
        FROM walpressure.results x WHERE x.sweep_id = report.sweep_id;
    IF top IS NULL THEN
        RETURN NEXT '(no step finished)';
        RETURN;
    END IF;
    RETURN NEXT format('%s | %-*s | %20s | %6s | %5s | %s', rpad(s.setting, vw), width, 'tps',
                       'tps (95% interval)', 'IOPS', 'c/f', 'against the first');
    FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = report.sweep_id ORDER BY x.value_pos LOOP
        RETURN NEXT format('%s | %-*s | %20s | %6s | %5s | %s',
            rpad(r.value, vw), width,
            repeat('#', greatest(round(width * r.tps / nullif(top, 0))::int, 0)),
            coalesce(r.tps || CASE WHEN r.tps_ci_low IS NULL THEN ''
                                   ELSE ' ±' || round((r.tps_ci_high - r.tps_ci_low) / 2) END, '-'),
            coalesce(r.write_iops::text, '-'),
            coalesce(r.commits_per_fsync::text, '-'),
            CASE WHEN r.verdict IN ('baseline', 'discarded', 'no baseline') THEN r.verdict
                 ELSE format('%sx %s', r.speedup, r.verdict) END
            || coalesce('  [' || r.data_loss || ']', ''));
    END LOOP;
    RETURN NEXT format('tps: mean over %s; ±: half the 95%% interval (%s); IOPS: write IOPS of the pg_wal disk; c/f: commits per WAL fsync',
                       CASE WHEN s.repeats > 1 THEN s.repeats || ' interleaved repeats' ELSE 'the window' END,
                       CASE WHEN s.repeats > 1 THEN 'across repeats' ELSE 'from the per-second samples' END);
END
$$;

COMMENT ON FUNCTION report(bigint) IS
'A text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict';

-- Text safe inside SVG.
CREATE FUNCTION _xml_text(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN replace(replace(replace(replace(t, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;');

-- A round number at or above x for an axis: 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6 or 8
-- times a power of ten.
CREATE FUNCTION _nice_ceiling(x float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN x <= 0 THEN 1
    ELSE (SELECT min(m * p) FROM (VALUES (1.0), (1.25), (1.5), (2.0), (2.5), (3.0), (4.0), (5.0), (6.0), (8.0), (10.0)) AS f(m),
                 LATERAL (SELECT power(10, floor(log(x)))::float8 AS p) q
          WHERE m * p >= x) END;

-- An SVG chart of a sweep: tps (with its 95% interval) and write IOPS against
-- the value.
CREATE FUNCTION plot(sweep_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    w int := 720; h int := 400;
    l int := 70; rt int := 70; t int := 50; b int := 60;
    n int;
    tps_top float8;
    iops_top float8;
    x float8;
    svg text;
    tps_line text := '';
    iops_line text := '';
    marks text := '';
    has_iops bool;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w2 WHERE w2.sweep_id = plot.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', plot.sweep_id USING ERRCODE = 'no_data_found';
    END IF;
    -- the axes fit the means (an interval from two repeats can be very wide:
    -- its bar is cut at the top)
    SELECT count(*), 1.15 * max(x2.tps), 1.15 * max(greatest(x2.write_iops, x2.iops_cap)),
           bool_or(x2.write_iops IS NOT NULL)
        INTO n, tps_top, iops_top, has_iops
        FROM walpressure.results x2 WHERE x2.sweep_id = plot.sweep_id;
    tps_top := walpressure._nice_ceiling(coalesce(tps_top, 1));
    iops_top := walpressure._nice_ceiling(coalesce(iops_top, 1));

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format('<rect width="%s" height="%s" fill="white"/>', w, h)
        || format('<text x="%s" y="22" text-anchor="middle" font-size="15">%s</text>', w / 2,
                  walpressure._xml_text(format('sweep %s: %s (%s, %s clients%s)', s.sweep_id, s.setting,
                                               s.workload, s.clients,
                                               coalesce(', cap ' || s.iops_cap || ' write IOPS', ''))))
        -- axes
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, h - b, w - rt, h - b)
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, t, l, h - b)
        || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', (l + w - rt) / 2, h - 15,
                  walpressure._xml_text(s.setting))
        || format('<text x="18" y="%s" text-anchor="middle" transform="rotate(-90 18 %s)" fill="#1f5fa8">transactions per second</text>',
                  (t + h - b) / 2, (t + h - b) / 2);
    -- tick labels: 0, half, top
    FOR i IN 0..4 LOOP
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>',
                             l, h - b - i * (h - b - t) / 4.0, w - rt, h - b - i * (h - b - t) / 4.0)
                   || format('<text x="%s" y="%s" text-anchor="end" fill="#1f5fa8">%s</text>',
                             l - 6, h - b - i * (h - b - t) / 4.0 + 4, round(tps_top * i / 4));
    END LOOP;
    IF has_iops THEN
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', w - rt, t, w - rt, h - b)
                   || format('<text x="%s" y="%s" text-anchor="middle" transform="rotate(90 %s %s)" fill="#c45a00">write IOPS</text>',
                             w - 18, (t + h - b) / 2, w - 18, (t + h - b) / 2);
        FOR i IN 0..4 LOOP
            svg := svg || format('<text x="%s" y="%s" fill="#c45a00">%s</text>',
                                 w - rt + 6, h - b - i * (h - b - t) / 4.0 + 4, round(iops_top * i / 4));
        END LOOP;
    END IF;

    FOR r IN SELECT * FROM walpressure.results x3 WHERE x3.sweep_id = plot.sweep_id ORDER BY x3.value_pos LOOP
        x := l + (r.value_pos - 0.5) * (w - l - rt) / greatest(n, 1);
        svg := svg || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(x::numeric, 1), h - b + 18,
                             walpressure._xml_text(r.value));
        IF r.tps IS NULL THEN
            CONTINUE;           -- a value with no step that counts: its label only
        END IF;
        tps_line := tps_line || format('%s,%s ', round(x::numeric, 1),
                                       round((h - b - (h - b - t) * r.tps / tps_top)::numeric, 1));
        marks := marks || format('<circle cx="%s" cy="%s" r="4" fill="#1f5fa8"><title>%s</title></circle>',
                                 round(x::numeric, 1), round((h - b - (h - b - t) * r.tps / tps_top)::numeric, 1),
                                 walpressure._xml_text(format('%s = %s: %s tps', s.setting, r.value, r.tps)));
        IF r.tps_ci_low IS NOT NULL THEN
            marks := marks || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#1f5fa8"/>',
                                     round(x::numeric, 1), round((h - b - (h - b - t) * greatest(r.tps_ci_low, 0) / tps_top)::numeric, 1),
                                     round(x::numeric, 1), round((h - b - (h - b - t) * least(r.tps_ci_high, tps_top) / tps_top)::numeric, 1));
        END IF;
        IF r.write_iops IS NOT NULL THEN
            iops_line := iops_line || format('%s,%s ', round(x::numeric, 1),
                                             round((h - b - (h - b - t) * r.write_iops / iops_top)::numeric, 1));
        END IF;
    END LOOP;
    svg := svg || format('<polyline points="%s" fill="none" stroke="#1f5fa8" stroke-width="2"/>', trim(tps_line));
    IF iops_line <> '' THEN
        svg := svg || format('<polyline points="%s" fill="none" stroke="#c45a00" stroke-width="2" stroke-dasharray="6 4"/>',
                             trim(iops_line));
    END IF;
    IF s.iops_cap IS NOT NULL THEN
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c45a00" stroke-width="1" stroke-dasharray="2 3"/>',
                             l, round((h - b - (h - b - t) * s.iops_cap / iops_top)::numeric, 1),
                             w - rt, round((h - b - (h - b - t) * s.iops_cap / iops_top)::numeric, 1));
    END IF;
    svg := svg || marks
        || format('<text x="%s" y="40" fill="#1f5fa8">&#8212; tps (bars: 95%% interval)</text>', l + 10)
        || CASE WHEN iops_line <> '' THEN format('<text x="%s" y="40" fill="#c45a00">- - write IOPS</text>', l + 260) ELSE '' END
        || '</svg>';
    RETURN svg;
END
$$;

COMMENT ON FUNCTION plot(bigint) IS
'An SVG chart of a sweep: tps with its 95% interval and write IOPS against the value';

GRANT SELECT ON best TO pg_monitor;
