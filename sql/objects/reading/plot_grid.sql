--
-- A grid sweep's SVG: a heat map, a cell per pair of values.
--

-- One cell of a grid's heat map: its rectangle (green faster, red slower
-- than the baseline, the deeper the larger the speedup; grey otherwise;
-- a thick border for the answer, dashed for the current configuration),
-- its tps and its speedup.
CREATE OR REPLACE FUNCTION _plot_grid_cell(x float8, y float8, cw int, ch int, smax float8, chosen bool,
                                           tps numeric, speedup numeric, verdict text, is_current bool,
                                           tps_ci_low numeric, tps_ci_high numeric, label text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a float8 := CASE WHEN _plot_grid_cell.speedup > 0 AND smax > 0 THEN 0.25 + 0.75 * least(abs(ln(_plot_grid_cell.speedup)) / smax, 1) ELSE 0 END;
    tone int[] := CASE _plot_grid_cell.verdict WHEN 'faster' THEN ARRAY[42, 157, 58] WHEN 'slower' THEN ARRAY[192, 57, 43] END;
    fill text;
BEGIN
    fill := CASE WHEN _plot_grid_cell.tps IS NULL THEN '#ffffff'
                 WHEN tone IS NULL THEN '#e8e8e8'
                 ELSE format('rgb(%s,%s,%s)', round(255 + (tone[1] - 255) * a), round(255 + (tone[2] - 255) * a),
                             round(255 + (tone[3] - 255) * a)) END;
    RETURN format('<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s" stroke-width="%s"%s><title>%s</title></rect>',
                             walpressure._px(x), walpressure._px(y), cw, ch, fill,
                             CASE WHEN chosen THEN '#1b5e20' ELSE '#999999' END,
                             CASE WHEN chosen THEN 3 ELSE 1 END,
                             CASE WHEN _plot_grid_cell.is_current THEN ' stroke-dasharray="5 3"' ELSE '' END,
                             walpressure._xml_text(coalesce(label || ': ' || _plot_grid_cell.tps || ' tps'
                                                            || coalesce(' (95% interval ' || _plot_grid_cell.tps_ci_low || '-' || _plot_grid_cell.tps_ci_high || ')', '')
                                                            || ', ' || _plot_grid_cell.verdict, 'not measured')))
                   || format('<text x="%s" y="%s" text-anchor="middle" font-size="13"%s>%s</text>',
                             walpressure._px(x + cw / 2.0), walpressure._px(y + 20),
                             CASE WHEN a > 0.6 AND tone IS NOT NULL THEN ' fill="white"' ELSE '' END,
                             coalesce(round(_plot_grid_cell.tps)::text, '-'))
                   || format('<text x="%s" y="%s" text-anchor="middle" font-size="11"%s>%s</text>',
                             walpressure._px(x + cw / 2.0), walpressure._px(y + 37),
                             CASE WHEN a > 0.6 AND tone IS NOT NULL THEN ' fill="white"' ELSE '' END,
                             walpressure._xml_text(CASE WHEN _plot_grid_cell.verdict = 'baseline' THEN '= baseline'
                                                        WHEN _plot_grid_cell.speedup IS NULL THEN coalesce(_plot_grid_cell.verdict, '')
                                                        ELSE walpressure._ratio_text(_plot_grid_cell.speedup) || 'x' || CASE _plot_grid_cell.verdict WHEN 'faster' THEN ' +'
                                                                                   WHEN 'slower' THEN ' -' ELSE '' END END));
END
$$;

-- A grid sweep's SVG: a heat map, one cell per pair of values, its tps and
-- speedup, green when faster and red when slower than the baseline (the
-- paired ratio's 95% interval excludes 1; the deeper, the larger the
-- speedup), grey otherwise.
CREATE OR REPLACE FUNCTION _plot_grid(sweep_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    g record;
    k walpressure.best;
    c record;
    cw int := 120; ch int := 48;
    l int; t int := 130; w int; h int;
    y float8;
    smax float8;
    loss text;
    svg text;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w2 WHERE w2.sweep_id = _plot_grid.sweep_id;
    SELECT * INTO g FROM walpressure._grid(_plot_grid.sweep_id);
    SELECT * INTO k FROM walpressure.best bb WHERE bb.sweep_id = _plot_grid.sweep_id;
    SELECT max(abs(ln(x2.speedup))), string_agg(DISTINCT x2.data_loss, ', ') FILTER (WHERE x2.data_loss IS NOT NULL)
        INTO smax, loss
        FROM walpressure.results x2 WHERE x2.sweep_id = _plot_grid.sweep_id AND x2.value_pos > 0 AND x2.speedup > 0;
    l := 30 + 7 * greatest(length(g.down), (SELECT max(length(v)) FROM unnest(g.down_vals) v));
    w := greatest(l + cw * cardinality(g.across_vals) + 30, 620);
    h := t + ch * cardinality(g.down_vals) + 70;
    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format('<rect width="%s" height="%s" fill="white"/>', w, h)
        || format('<text x="%s" y="24" text-anchor="middle" font-size="15">%s</text>', w / 2,
                  walpressure._xml_text(format('sweep %s%s: %s by %s', s.sweep_id,
                                               coalesce(' "' || s.label || '"', ''), g.down, g.across)))
        || format('<text x="%s" y="42" text-anchor="middle" font-size="11" fill="#555555">%s</text>', w / 2,
                  walpressure._xml_text(format('%s, %s clients, %s engine, %s x %s s%s; %s, %s',
                                               s.workload, s.clients, s.engine, s.repeats,
                                               trim_scale(extract(epoch FROM s.duration)),
                                               coalesce(', ' || walpressure._disk_words(s.sweep_id), ''),
                                               to_char(s.started_at, 'YYYY-MM-DD HH24:MI'), s.status)))
        || format('<text x="%s" y="62">%s</text>', 20,
                  walpressure._xml_text('each cell: tps and speedup against the baseline (=); green faster, red slower (95% interval of the paired ratio), grey undecided or equivalent'))
        || format('<text x="%s" y="%s" text-anchor="middle" font-weight="bold">%s</text>',
                  walpressure._px(l + cw * cardinality(g.across_vals) / 2.0), t - 30, walpressure._xml_text(g.across))
        || format('<text x="%s" y="%s" text-anchor="end" font-weight="bold">%s</text>', l - 8, t - 10,
                  walpressure._xml_text(g.down));
    FOR c IN SELECT av.v, av.i FROM unnest(g.across_vals) WITH ORDINALITY av(v, i) LOOP
        svg := svg || format('<text x="%s" y="%s" text-anchor="middle">%s</text>',
                             walpressure._px(l + cw * (c.i - 0.5)), t - 10, walpressure._xml_text(c.v));
    END LOOP;
    FOR c IN SELECT dv.v, dv.i FROM unnest(g.down_vals) WITH ORDINALITY dv(v, i) LOOP
        svg := svg || format('<text x="%s" y="%s" text-anchor="end">%s</text>',
                             l - 8, walpressure._px(t + ch * (c.i - 0.5) + 4), walpressure._xml_text(c.v));
    END LOOP;
    FOR c IN SELECT dv.i AS di, av.i AS ai, rr.tps, rr.speedup, rr.verdict, rr.is_current, rr.value,
                    rr.tps_ci_low, rr.tps_ci_high
             FROM unnest(g.down_vals) WITH ORDINALITY dv(v, i)
             CROSS JOIN unnest(g.across_vals) WITH ORDINALITY av(v, i)
             LEFT JOIN walpressure.results rr
                    ON rr.sweep_id = _plot_grid.sweep_id AND rr.value_pos > 0
                   AND rr.value::jsonb->>g.down = dv.v AND rr.value::jsonb->>g.across = av.v LOOP
        svg := svg || walpressure._plot_grid_cell(l + cw * (c.ai - 1), t + ch * (c.di - 1), cw, ch, smax,
                                                  k.apply IS NOT NULL AND c.value = k.value, c.tps, c.speedup, c.verdict,
                                                  c.is_current, c.tps_ci_low, c.tps_ci_high,
                                                  walpressure._value_label(s.setting, c.value, ', '));
    END LOOP;
    y := t + ch * cardinality(g.down_vals) + 24;
    svg := svg || format('<text x="%s" y="%s">%s</text>', 20, walpressure._px(y),
                         walpressure._xml_text(coalesce(
                             CASE WHEN k.apply IS NOT NULL THEN format('best (thick border): %s, %sx', 
                                                                      walpressure._value_label(s.setting, k.value, ', '), walpressure._ratio_text(k.gain))
                                  WHEN k.answer LIKE 'keep%' THEN 'keep: nothing beats the baseline' END, '')
                             || CASE WHEN EXISTS (SELECT 1 FROM walpressure.results z WHERE z.sweep_id = _plot_grid.sweep_id AND z.is_current AND z.value_pos > 0)
                                     THEN '; dashed: the current configuration' ELSE '' END));
    IF loss IS NOT NULL THEN
        svg := svg || format('<text x="%s" y="%s" fill="#c0392b" font-weight="bold">%s</text>', 20, walpressure._px(y + 20),
                             walpressure._xml_text('a crash can lose data at ' || loss));
    END IF;
    RETURN svg || '</svg>';
END
$$;

COMMENT ON FUNCTION _plot_grid(bigint) IS 'plot() of a grid sweep (two settings, every pair of their values): a heat map of the tps and the speedup against the baseline';
