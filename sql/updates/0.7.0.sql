-- 0.6.0 -> 0.7.0: the sources of every function and view kept once (sql/objects/); what
-- grant_sweeper gave each role, recorded for revoke_sweeper.

CREATE TABLE sweeper_grants (
    grant_id bigserial PRIMARY KEY,
    role regrole NOT NULL,
    granted text NOT NULL,
    revoke text NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    granted_by name NOT NULL DEFAULT current_user
);
