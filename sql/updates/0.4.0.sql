-- 0.3.0 -> 0.4.0: configurations, checkpoint => false, full-page image bytes, who wrote
-- data-file buffers.

ALTER TABLE sweeps ADD COLUMN checkpoint bool NOT NULL DEFAULT true;
ALTER TABLE steps ADD COLUMN fpi_bytes bigint,
    ADD COLUMN buffers_checkpoint bigint,
    ADD COLUMN buffers_clean bigint,
    ADD COLUMN buffers_backend bigint,
    ADD COLUMN buffers_backend_fsync bigint;

-- run_sweep's checkpoint argument
DROP FUNCTION IF EXISTS run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool,
                        text, text, "any");
