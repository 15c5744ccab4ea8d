--
-- A sweep's SVG: tps and write IOPS against the value (plot).
--

-- The chart's frame: the title and its subtitle (the disk the cap stood
-- for), the axes, their titles and the y ticks, left (tps) and right
-- (write IOPS; an open loop's p99).
CREATE OR REPLACE FUNCTION _plot_frame(s walpressure.sweeps, w int, h int, l int, rt int, t int, b int,
                                       tps_top float8, tps_step float8, iops_top float8, iops_step float8,
                                       has_iops bool, right_label text, log_x bool)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    pw float8 := w - l - rt;
    ph float8 := h - t - b;
    unit text := walpressure._setting_unit(s.setting);
    py float8;
    svg text;
BEGIN
    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format('<rect width="%s" height="%s" fill="white"/>', w, h)
        || format('<text x="%s" y="24" text-anchor="middle" font-size="15">%s</text>', w / 2,
                  walpressure._xml_text(format('sweep %s%s: %s', s.sweep_id,
                                               coalesce(' "' || s.label || '"', ''), s.setting)))
        || format('<text x="%s" y="42" text-anchor="middle" font-size="11" fill="#555555">%s</text>', w / 2,
                  walpressure._xml_text(format('%s, %s clients, %s engine, %s x %s s%s; %s, %s',
                                               s.workload, s.clients, s.engine, s.repeats,
                                               trim_scale(extract(epoch FROM s.duration)),
                                               coalesce(', ' || walpressure._disk_words(s.sweep_id), ''),
                                               to_char(s.started_at, 'YYYY-MM-DD HH24:MI'), s.status)))
        -- axes and their titles, above them (nothing rotated, nothing overlaps)
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, h - b, w - rt, h - b)
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, t, l, h - b)
        || format('<text x="%s" y="%s" text-anchor="start" fill="#1f5fa8">transactions per second</text>', l - 40, t - 10)
        || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', l + pw / 2, h - 18,
                  walpressure._xml_text(s.setting || coalesce(' (' || unit || CASE WHEN log_x THEN ', log scale' ELSE '' END || ')',
                                                              CASE WHEN log_x THEN ' (log scale)' ELSE '' END)));
    FOR i IN 0..least(round(tps_top / tps_step), 20)::int LOOP
        py := h - b - ph * i * tps_step / tps_top;
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>', l, walpressure._px(py), w - rt, walpressure._px(py))
                   || format('<text x="%s" y="%s" text-anchor="end" fill="#1f5fa8">%s</text>',
                             l - 6, walpressure._px(py + 4), walpressure._tick(i * tps_step));
    END LOOP;
    IF has_iops THEN
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', w - rt, t, w - rt, h - b)
                   || format('<text x="%s" y="%s" text-anchor="end" fill="#c45a00">%s</text>', w - rt + 40, t - 10, right_label);
        FOR i IN 0..least(round(iops_top / iops_step), 20)::int LOOP
            py := h - b - ph * i * iops_step / iops_top;
            svg := svg || format('<text x="%s" y="%s" fill="#c45a00">%s</text>',
                                 w - rt + 6, walpressure._px(py + 4), walpressure._tick(i * iops_step));
        END LOOP;
    END IF;
    RETURN svg;
END
$$;

-- The x ticks: round numbers on a numeric axis (1, 2, 5 a decade on a log
-- one); none on an axis of one tick per value (the points label it).
CREATE OR REPLACE FUNCTION _plot_x_ticks(numeric_x bool, log_x bool, xmin float8, xmax float8,
                                         l int, pw float8, h int, b int)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    svg text := '';
    px float8;
    v float8;
    x_step float8;
BEGIN
    IF numeric_x AND log_x THEN
        FOR e IN floor(log(xmin))::int..least(ceil(log(xmax))::int, floor(log(xmin))::int + 40) LOOP
            FOREACH v IN ARRAY ARRAY[1, 2, 5] LOOP
                CONTINUE WHEN v * power(10, e) < xmin * 0.999 OR v * power(10, e) > xmax * 1.001
                              OR (v <> 1 AND log(xmax / xmin) > 2.5);
                px := l + pw * (0.05 + 0.9 * (ln(v * power(10, e)) - ln(xmin)) / (ln(xmax) - ln(xmin)));
                svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', walpressure._px(px), h - b, walpressure._px(px), h - b + 5)
                           || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19,
                                     walpressure._tick(v * power(10, e)));
            END LOOP;
        END LOOP;
    ELSIF numeric_x THEN
        x_step := walpressure._nice_step((xmax - xmin) / 5);
        -- ticks by count (a float step added to a large value can add nothing)
        FOR i IN 0..least(floor(xmax / x_step + 1e-9) - ceil(xmin / x_step - 1e-9), 20)::int LOOP
            v := (ceil(xmin / x_step - 1e-9) + i) * x_step;
            px := l + pw * (0.05 + 0.9 * (v - xmin) / (xmax - xmin));
            svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', walpressure._px(px), h - b, walpressure._px(px), h - b + 5)
                       || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19, walpressure._tick(v));
        END LOOP;
    END IF;
    RETURN svg;
END
$$;

-- The points: per value its tps (with its 95% interval bar), the current
-- value and the answer circled, and the right axis' line (write IOPS; an
-- open loop's p99, a rate not kept in red); a value's label on an axis of
-- one tick per value.
CREATE OR REPLACE FUNCTION _plot_points(s walpressure.sweeps, answer_value text, applied bool,
                                        numeric_x bool, log_x bool, xmin float8, xmax float8, n int,
                                        l int, pw float8, ph float8, h int, b int,
                                        tps_top float8, iops_top float8, open bool,
                                        OUT tps_line text, OUT iops_line text, OUT marks text, OUT labels text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r record;
    px float8;
    py float8;
    svg text := '';
BEGIN
    tps_line := ''; iops_line := ''; marks := '';
    FOR r IN SELECT x3.*, walpressure._setting_number(s.setting, x3.value) AS num
             FROM walpressure.results x3 WHERE x3.sweep_id = s.sweep_id AND x3.value_pos > 0
             ORDER BY CASE WHEN numeric_x THEN walpressure._setting_number(s.setting, x3.value) END, x3.value_pos LOOP
        px := l + pw * CASE WHEN log_x THEN 0.05 + 0.9 * (ln(r.num) - ln(xmin)) / (ln(xmax) - ln(xmin))
                            WHEN numeric_x THEN 0.05 + 0.9 * (r.num - xmin) / (xmax - xmin)
                            ELSE (r.value_pos - 0.5) / greatest(n, 1) END;
        IF NOT numeric_x THEN
            svg := svg || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19,
                                 CASE WHEN s.setting = 'settings' THEN
                                     format('<tspan x="%s">', walpressure._px(px))
                                     || replace(walpressure._xml_text(walpressure._value_label(s.setting, r.value, E'\n')), E'\n',
                                                format('</tspan><tspan x="%s" dy="15">', walpressure._px(px)))
                                     || '</tspan>'
                                 ELSE walpressure._xml_text(r.value) END);
        END IF;
        IF r.tps IS NULL THEN
            CONTINUE;           -- a value with no step that counts: its label only
        END IF;
        py := h - b - ph * r.tps / tps_top;
        tps_line := tps_line || walpressure._px(px) || ',' || walpressure._px(py) || ' ';
        IF r.tps_ci_low IS NOT NULL THEN
            marks := marks || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#1f5fa8"/>',
                                     walpressure._px(px), walpressure._px(h - b - ph * greatest(r.tps_ci_low, 0) / tps_top),
                                     walpressure._px(px), walpressure._px(h - b - ph * least(r.tps_ci_high, tps_top) / tps_top));
        END IF;
        marks := marks || format('<circle cx="%s" cy="%s" r="4" fill="#1f5fa8"><title>%s</title></circle>',
                                 walpressure._px(px), walpressure._px(py),
                                 walpressure._xml_text(format('%s = %s: %s tps%s, %s', s.setting, r.value, r.tps,
                                                              coalesce(' (95% interval ' || r.tps_ci_low || '-' || r.tps_ci_high || ')', ''),
                                                              r.verdict)));
        IF r.is_current THEN
            marks := marks || format('<circle cx="%s" cy="%s" r="8" fill="none" stroke="black" stroke-width="1.5"/>',
                                     walpressure._px(px), walpressure._px(py));
        END IF;
        IF applied AND r.value = answer_value THEN
            marks := marks || format('<circle cx="%s" cy="%s" r="11" fill="none" stroke="#2a9d3a" stroke-width="2.5"/>',
                                     walpressure._px(px), walpressure._px(py));
        END IF;
        IF open AND r.latency_p99_ms IS NOT NULL THEN
            iops_line := iops_line || walpressure._px(px) || ',' || walpressure._px(h - b - ph * r.latency_p99_ms / iops_top) || ' ';
            -- a rate not sustained: a closed loop in disguise, marked red
            marks := marks || format('<rect x="%s" y="%s" width="8" height="8" fill="%s"><title>%s</title></rect>',
                                     walpressure._px(px - 4), walpressure._px(h - b - ph * r.latency_p99_ms / iops_top - 4),
                                     CASE WHEN r.rate_sustained THEN '#c45a00' ELSE '#c0392b' END,
                                     walpressure._xml_text(format('%s = %s: p99 %s ms, %s of %s transactions/s%s', s.setting, r.value,
                                                                  r.latency_p99_ms, r.rate_achieved, r.rate,
                                                                  CASE WHEN r.rate_sustained THEN '' ELSE ': NOT SUSTAINED, a closed loop in disguise' END)));
        ELSIF NOT open AND r.write_iops IS NOT NULL THEN
            iops_line := iops_line || walpressure._px(px) || ',' || walpressure._px(h - b - ph * r.write_iops / iops_top) || ' ';
        END IF;
    END LOOP;
    labels := svg;
END
$$;

-- The legend, one row under the title, each entry after the last: the
-- lines, the cap, the current value, the answer; a data-loss warning below.
CREATE OR REPLACE FUNCTION _plot_legend(s walpressure.sweeps, k walpressure.best, iops_drawn bool, cap_drawn bool,
                                        right_label text, loss text, l int, w int)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    lx float8 := l;
    legend text;
BEGIN
    legend := format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#1f5fa8" stroke-width="2"/><text x="%s" y="62" fill="#1f5fa8">tps (bar: 95%% interval)</text>',
                     lx, lx + 18, lx + 22);
    lx := lx + 22 + 6.6 * length('tps (bar: 95% interval)') + 14;
    IF iops_drawn THEN
        legend := legend || format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#c45a00" stroke-width="2" stroke-dasharray="6 4"/><text x="%s" y="62" fill="#c45a00">%s</text>',
                                   walpressure._px(lx), walpressure._px(lx + 18), walpressure._px(lx + 22), right_label);
        lx := lx + 22 + 6.6 * length(right_label) + 14;
    END IF;
    IF cap_drawn THEN
        legend := legend || format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#c45a00" stroke-dasharray="2 3"/><text x="%s" y="62" fill="#c45a00">%s</text>',
                                   walpressure._px(lx), walpressure._px(lx + 18), walpressure._px(lx + 22),
                                   'cap ' || s.iops_cap);
        lx := lx + 22 + 6.6 * length('cap ' || s.iops_cap) + 14;
    END IF;
    IF s.current_value IS NOT NULL THEN
        legend := legend || CASE WHEN s.current_pos IS NOT NULL
            THEN format('<circle cx="%s" cy="58" r="6" fill="none" stroke="black" stroke-width="1.5"/><text x="%s" y="62">%s</text>',
                        walpressure._px(lx + 8), walpressure._px(lx + 18),
                        walpressure._xml_text('current ' || walpressure._value_label(s.setting, s.current_value, ', ')))
            ELSE format('<text x="%s" y="62">%s</text>', walpressure._px(lx),
                        walpressure._xml_text('current ' || walpressure._value_label(s.setting, s.current_value, ', ') || ': not measured')) END;
        lx := lx + 18 + 6.6 * length('current ' || walpressure._value_label(s.setting, s.current_value, ', ')
                                     || CASE WHEN s.current_pos IS NULL THEN ': not measured' ELSE '' END) + 14;
    END IF;
    legend := legend || CASE WHEN k.apply IS NOT NULL
        THEN format('<circle cx="%s" cy="58" r="7" fill="none" stroke="#2a9d3a" stroke-width="2.5"/><text x="%s" y="62" fill="#2a9d3a">%s</text>',
                    walpressure._px(lx + 8), walpressure._px(lx + 20),
                    walpressure._xml_text(CASE WHEN lx + 20 + 6.6 * length(format('best %s: %sx', walpressure._value_label(s.setting, k.value, ', '), walpressure._ratio_text(k.gain))) <= w
                                               THEN format('best %s: %sx', walpressure._value_label(s.setting, k.value, ', '), walpressure._ratio_text(k.gain))
                                               ELSE format('best (circled): %sx', walpressure._ratio_text(k.gain)) END))
        WHEN k.answer LIKE 'keep%' THEN format('<text x="%s" y="62" fill="#2a9d3a">keep: nothing beats it</text>', walpressure._px(lx))
        ELSE '' END;
    IF loss IS NOT NULL THEN
        legend := legend || format('<text x="%s" y="80" fill="#c0392b" font-weight="bold">%s</text>', l,
                                   walpressure._xml_text('a crash can lose data at ' || loss));
    END IF;
    RETURN legend;
END
$$;

-- An SVG chart of a sweep: tps (with its 95% interval) and write IOPS against
-- the value, on a numeric axis (log when the values span 20x or more) for
-- number settings, with the cap, the current value, the answer and any
-- data-loss risk in the legend.
CREATE OR REPLACE FUNCTION _plot(sweep_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    k walpressure.best;
    w int := 760; h int := 480;
    l int := 80; rt int := 80; t int := 108; b int := 66;
    pw float8; ph float8;
    n int;
    numeric_x bool; log_x bool;
    xmin float8; xmax float8;
    tps_max float8; iops_max float8;
    tps_step float8; iops_step float8; tps_top float8; iops_top float8;
    py float8;
    has_iops bool;
    loss text;
    svg text;
    p record;
    lines int;
    open bool;          -- an open loop: the right axis is p99 latency, not write IOPS
    right_label text;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w2 WHERE w2.sweep_id = _plot.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', _plot.sweep_id USING ERRCODE = 'no_data_found';
    END IF;
    -- a grid: a heat map
    IF EXISTS (SELECT 1 FROM walpressure._grid(_plot.sweep_id)) THEN
        RETURN walpressure._plot_grid(_plot.sweep_id);
    END IF;
    -- a configuration's label has a line per setting: room below the axis
    IF s.setting = 'settings' THEN
        SELECT coalesce(max((SELECT count(*) FROM jsonb_object_keys(v2::jsonb))), 1) INTO lines
        FROM unnest(s.vals) AS v2;
        h := h + 15 * (greatest(lines, 1) - 1);
        b := b + 15 * (greatest(lines, 1) - 1);
    END IF;
    SELECT * INTO k FROM walpressure.best bb WHERE bb.sweep_id = _plot.sweep_id;
    pw := w - l - rt;
    ph := h - t - b;

    -- what is drawn: every value with a step (the current value's row when it
    -- was not measured is in the legend, not on the axis)
    SELECT count(*), bool_and(walpressure._setting_number(s.setting, x2.value) IS NOT NULL),
           min(walpressure._setting_number(s.setting, x2.value)),
           max(walpressure._setting_number(s.setting, x2.value)),
           max(x2.tps),
           CASE WHEN bool_or(x2.rate IS NOT NULL) THEN max(x2.latency_p99_ms) ELSE max(greatest(x2.write_iops, x2.iops_cap)) END,
           CASE WHEN bool_or(x2.rate IS NOT NULL) THEN bool_or(x2.latency_p99_ms IS NOT NULL) ELSE bool_or(x2.write_iops IS NOT NULL) END,
           bool_or(x2.rate IS NOT NULL),
           CASE WHEN s.setting = 'settings' THEN
               string_agg(DISTINCT x2.data_loss, ', ') FILTER (WHERE x2.data_loss IS NOT NULL)
           ELSE string_agg(DISTINCT x2.value || ' (' || x2.data_loss || ')', ', ') FILTER (WHERE x2.data_loss IS NOT NULL) END
        INTO n, numeric_x, xmin, xmax, tps_max, iops_max, has_iops, open, loss
        FROM walpressure.results x2 WHERE x2.sweep_id = _plot.sweep_id AND x2.value_pos > 0;
    open := coalesce(open, false);
    right_label := CASE WHEN open THEN 'p99 latency, ms' ELSE 'write IOPS' END;
    -- a numeric axis needs values a tick apart: two that differ in the last
    -- digits of a float8 are drawn one per value
    numeric_x := coalesce(numeric_x, false) AND n >= 2
                 AND xmax - xmin > 1e-9 * greatest(abs(xmin), abs(xmax));
    log_x := numeric_x AND xmin > 0 AND xmax / xmin >= 20;

    -- round steps; the axes fit the means (a wide interval is cut at the top)
    tps_step := walpressure._nice_step(1.1 * coalesce(nullif(tps_max, 0), 1) / 5);
    tps_top := tps_step * ceil(1.1 * coalesce(nullif(tps_max, 0), 1) / tps_step);
    iops_step := walpressure._nice_step(1.1 * coalesce(nullif(iops_max, 0), 1) / 5);
    iops_top := iops_step * ceil(1.1 * coalesce(nullif(iops_max, 0), 1) / iops_step);

    svg := walpressure._plot_frame(s, w, h, l, rt, t, b, tps_top, tps_step, iops_top, iops_step, has_iops,
                                   right_label, log_x)
           || walpressure._plot_x_ticks(numeric_x, log_x, xmin, xmax, l, pw, h, b);
    SELECT * INTO p FROM walpressure._plot_points(s, k.value, k.apply IS NOT NULL, numeric_x, log_x, xmin, xmax, n,
                                                   l, pw, ph, h, b, tps_top, iops_top, open);
    svg := svg || p.labels
           || format('<polyline points="%s" fill="none" stroke="#1f5fa8" stroke-width="2"/>', trim(p.tps_line));
    IF p.iops_line <> '' THEN
        svg := svg || format('<polyline points="%s" fill="none" stroke="#c45a00" stroke-width="2" stroke-dasharray="6 4"/>',
                             trim(p.iops_line));
    END IF;
    IF s.iops_cap IS NOT NULL AND has_iops AND NOT open THEN
        py := h - b - ph * s.iops_cap / iops_top;
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c45a00" stroke-width="1" stroke-dasharray="2 3"/>',
                             l, walpressure._px(py), w - rt, walpressure._px(py));
    END IF;
    svg := svg || p.marks;
    RETURN svg || walpressure._plot_legend(s, k, p.iops_line <> '', s.iops_cap IS NOT NULL AND has_iops AND NOT open,
                                           right_label, loss, l, w)
           || '</svg>';
END
$$;

COMMENT ON FUNCTION _plot(bigint) IS 'plot() after its check: an SVG chart of a sweep: tps with its 95% interval and write IOPS against the value (an open loop: p99 latency, schedule lag included, instead of IOPS, a rate not sustained in red); a grid''s heat map (_plot_grid)';

CREATE OR REPLACE FUNCTION plot(sweep_id bigint)
RETURNS text
AS 'MODULE_PATHNAME', 'wp_plot'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION plot(bigint) IS 'An SVG chart of a sweep: tps with its 95% interval and write IOPS against the value; for a two-setting grid, a heat map.';
