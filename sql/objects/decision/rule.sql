--
-- The one decision: a value's effect against another, from the rounds.
--
-- A sweep's repeats are interleaved: round r measured every value once, a
-- few minutes apart, so what drifts from round to round (the machine, the
-- cache, the disk) weighs on a value and on the baseline alike.  The effect
-- of a value is the ratio of its figure to the baseline's in the same round;
-- across rounds, the geometric mean of those ratios and a 95% interval from
-- Student's t on their logarithms (Kalibera and Jones, "Rigorous
-- Benchmarking in Reasonable Time", ISMM 2013: ratios of repeated runs).
-- Two sweeps' rounds are not paired (compare()): there the two sets of
-- rounds are independent samples and the interval is Welch's.
--
-- Verdicts, each saying what was tested (for tps; for a latency a lower
-- figure is the better one, and the words are lower / higher):
--   faster / slower   the ratio's 95% interval excludes 1;
--   equivalent        the whole interval lies within +-X% (X is
--                     walpressure.equivalence_margin, 2 unless set; both
--                     one-sided tests at 2.5%);
--   undecided         neither, with the rounds that would decide at the
--                     spread seen (or none: one round has no interval).
-- results, best, report, plot, compare and repeats => 'auto' all read
-- these; bench/statistics measures how often they are wrong.
--

-- The 97.5% quantile of Student's t with df degrees of freedom: the factor of
-- a 95% confidence interval of a mean.  Exact to three decimals up to 30
-- (a fractional df is rounded down: a wider interval), then the
-- Cornish-Fisher expansion (error under 0.001).
CREATE OR REPLACE FUNCTION _t975(df float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE
    WHEN df < 1 THEN NULL
    WHEN df <= 30 THEN (ARRAY[12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                              2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                              2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042])[floor(df)::int]
    ELSE 1.959964 + 2.37224 / df + 2.82217 / (df * df)
END;

-- The equivalence margin in percent: walpressure.equivalence_margin, 2
-- unless set.
CREATE OR REPLACE FUNCTION _margin()
RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN coalesce(nullif(current_setting('walpressure.equivalence_margin', true), '')::float8, 2);

-- A ratio for people: three decimals near 1 (where a margin of 2% lives),
-- two up to 10, then fewer.
CREATE OR REPLACE FUNCTION _ratio_text(x float8)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN x >= 100 THEN round(x::numeric)::text
            WHEN x >= 10 THEN round(x::numeric, 1)::text
            WHEN x >= 0.9 AND x < 1.1 THEN round(x::numeric, 3)::text
            ELSE round(x::numeric, 2)::text END;

-- The rule.  a and b: one figure per round of the two values (paired: the
-- same rounds in the same order, a round that lacks either left out by the
-- caller; else two independent samples).  higher_better: tps (a larger
-- figure is better) or a latency.  The effect is a over b.
CREATE OR REPLACE FUNCTION _decide(a float8[], b float8[], paired bool, higher_better bool,
                                   margin_pct float8,
                                   OUT rounds int, OUT ratio float8, OUT ci_low float8,
                                   OUT ci_high float8, OUT verdict text, OUT rounds_needed int,
                                   OUT detail text)
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    m float8;          -- mean log ratio
    se float8;         -- its standard error
    df float8;
    half float8;
    spread float8;     -- what se is times sqrt(rounds): for the rounds needed
    two_sided bool;    -- rounds needed counted per side (unpaired)
    lim float8 := ln(1 + margin_pct / 100);
    na int; nb int; ma float8; mb float8; va float8; vb float8;
    up text := CASE WHEN higher_better THEN 'faster' ELSE 'higher' END;
    down text := CASE WHEN higher_better THEN 'slower' ELSE 'lower' END;
    how text;
BEGIN
    IF paired THEN
        -- ln(x) - ln(y), not ln(x / y): no quotient of two figures can overflow
        SELECT count(*)::int, avg(ln(x) - ln(y)), stddev_samp(ln(x) - ln(y)) INTO rounds, m, spread
        FROM unnest(a, b) AS u(x, y) WHERE x > 0 AND y > 0;
        IF rounds >= 2 THEN
            se := spread / sqrt(rounds);
            df := rounds - 1;
        END IF;
        how := format('%s paired round%s', rounds, CASE WHEN rounds = 1 THEN '' ELSE 's' END);
    ELSE
        SELECT count(*)::int, avg(ln(x)), var_samp(ln(x)) INTO na, ma, va FROM unnest(a) AS x WHERE x > 0;
        SELECT count(*)::int, avg(ln(y)), var_samp(ln(y)) INTO nb, mb, vb FROM unnest(b) AS y WHERE y > 0;
        rounds := least(na, nb);
        m := ma - mb;
        IF na >= 2 AND nb >= 2 THEN
            se := sqrt(va / na + vb / nb);
            -- Welch-Satterthwaite
            df := CASE WHEN se > 0 THEN power(se, 4) / (power(va / na, 2) / (na - 1) + power(vb / nb, 2) / (nb - 1))
                       ELSE na + nb - 2 END;
            spread := sqrt(va + vb);
            two_sided := true;
        END IF;
        how := format('%s and %s rounds, unpaired', na, nb);
    END IF;
    IF m IS NULL THEN
        verdict := 'undecided';
        detail := 'no round measured both';
        RETURN;
    END IF;
    -- figures are bounded (import() and the steps' own), and so is every
    -- logarithm; exp() is kept within float8 all the same
    ratio := exp(least(greatest(m, -700), 700));
    IF se IS NULL THEN
        verdict := 'undecided';
        detail := format('%sx from one round: no interval (repeats => 3 or more gives one)',
                         walpressure._ratio_text(ratio));
        RETURN;
    END IF;
    half := walpressure._t975(df) * se;
    ci_low := exp(least(greatest(m - half, -700), 700));
    ci_high := exp(least(greatest(m + half, -700), 700));
    detail := format('%sx (95%% interval %s-%s, %s)', walpressure._ratio_text(ratio),
                     walpressure._ratio_text(ci_low), walpressure._ratio_text(ci_high), how);
    IF m - half > 0 THEN
        verdict := up;
    ELSIF m + half < 0 THEN
        verdict := down;
    ELSIF abs(m) + half <= lim THEN
        verdict := 'equivalent';
        detail := format('the same within ±%s%%: %s', margin_pct, detail);
    ELSE
        verdict := 'undecided';
        -- the rounds at which this spread would give an interval that
        -- excludes 1 or lies within the margin (a t interval narrows as
        -- t(k - 1) / sqrt(k)); none when the difference is about the margin
        SELECT min(k) INTO rounds_needed
        FROM generate_series(rounds + 1, 1000) AS k
        WHERE walpressure._t975(CASE WHEN two_sided THEN 2 * k - 2 ELSE k - 1 END) * spread / sqrt(k)
              < greatest(abs(m), lim - abs(m));
        detail := format('undecided: %s; %s', detail,
                         CASE WHEN rounds_needed IS NULL THEN
                                  'no practical number of rounds would decide at this spread (the difference is about the margin)'
                              ELSE format('about %s more round%s would decide at this spread', rounds_needed - rounds,
                                          CASE WHEN rounds_needed - rounds = 1 THEN '' ELSE 's' END) END);
    END IF;
END
$$;

COMMENT ON FUNCTION _decide(float8[], float8[], bool, bool, float8) IS 'The decision rule: the effect of a over b (per-round figures; paired: the same rounds) as a geometric mean ratio with a 95% t interval on the logs (Welch''s when unpaired), and faster / slower (interval excludes 1), equivalent (interval within +-margin_pct%) or undecided, with the rounds that would decide at the spread seen';
