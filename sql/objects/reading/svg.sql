--
-- What the SVG charts share: text, ticks, pixels.
--

-- Text safe inside SVG.
CREATE OR REPLACE FUNCTION _xml_text(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN replace(replace(replace(replace(t, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;');

-- A round step for an axis: 1, 2, 2.5 or 5 times a power of ten, at or
-- above x, so that its multiples read well as ticks.
CREATE OR REPLACE FUNCTION _nice_step(x float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN x <= 0 THEN 1
    ELSE (SELECT min(m * p) FROM (VALUES (1.0), (2.0), (2.5), (5.0), (10.0)) AS f(m),
                 LATERAL (SELECT power(10, floor(log(x)))::float8 AS p) q
          WHERE m * p >= x * (1 - 1e-9)) END;

-- A tick label: whole numbers as such, others with the decimals they need.
CREATE OR REPLACE FUNCTION _tick(x float8)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN x = round(x) THEN round(x)::bigint::text
            ELSE trim_scale(round(x::numeric, 3))::text END;

-- An SVG coordinate, to a tenth of a pixel.
CREATE OR REPLACE FUNCTION _px(x float8)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN round(x::numeric, 1)::text;
