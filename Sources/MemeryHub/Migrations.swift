import Logging
import PostgresNIO

/// The hub's schema, as numbered steps. A hub applies at start the steps the database
/// lacks, in one transaction under an advisory lock: two hubs starting at once take turns,
/// and the second finds the work done. A step is never edited once released; changes come
/// as new steps.
enum Migrations {
    static let steps: [(version: Int, sql: [String])] = [
        (1, [
            """
            CREATE TABLE users (
                id bigserial PRIMARY KEY,
                name text NOT NULL,
                name_key text NOT NULL UNIQUE,
                password_hash text NOT NULL,
                role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'manager')),
                position bigint NOT NULL DEFAULT 0,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            """
            CREATE TABLE sessions (
                id uuid PRIMARY KEY,
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                token_hash bytea NOT NULL UNIQUE,
                device text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                last_seen timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX sessions_by_user ON sessions (user_id)",
            // Login attempts not (yet) known to have succeeded, by 'user:NAME' and by
            // 'address:IP': the limit holds across hubs.
            """
            CREATE TABLE login_failures (
                id bigserial PRIMARY KEY,
                key text NOT NULL,
                at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX login_failures_by_key ON login_failures (key, at)",
            """
            CREATE TABLE blobs (
                hash bytea PRIMARY KEY CHECK (length(hash) = 32),
                bytes bytea NOT NULL,
                size integer NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            // Who may read a picture: whoever uploaded it (they had its bytes) or whose events use it.
            """
            CREATE TABLE blob_grants (
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                hash bytea NOT NULL REFERENCES blobs (hash),
                PRIMARY KEY (user_id, hash)
            )
            """,
            "CREATE INDEX blob_grants_by_hash ON blob_grants (hash)",
            """
            CREATE TABLE events (
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                position bigint NOT NULL,
                id uuid NOT NULL,
                batch uuid NOT NULL,
                stream uuid NOT NULL,
                parent uuid,
                type text NOT NULL,
                schema_version integer NOT NULL,
                time_ms bigint NOT NULL,
                payload text NOT NULL,
                blobs text[] NOT NULL,
                checksum text NOT NULL,
                PRIMARY KEY (user_id, id),
                UNIQUE (user_id, position)
            )
            """,
            // A push's answer kept under its key, so that a retry is answered the same.
            """
            CREATE TABLE push_receipts (
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                key text NOT NULL,
                accepted integer NOT NULL,
                duplicates integer NOT NULL,
                position bigint NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (user_id, key)
            )
            """,
        ]),
        (2, [
            // The public library. `words` is the entry's title (weight A) and tags (B) as
            // written, and both by English stem, for full-text search.
            """
            CREATE TABLE library (
                id text PRIMARY KEY,
                kind text NOT NULL CHECK (kind IN ('recommendation', 'template', 'share')),
                owner_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                title text NOT NULL,
                tags text[] NOT NULL,
                hash bytea NOT NULL REFERENCES blobs (hash),
                content_type text NOT NULL,
                width integer NOT NULL,
                height integer NOT NULL,
                week text,
                position integer,
                template text,
                base_hash bytea REFERENCES blobs (hash),
                words tsvector NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                CHECK ((kind = 'recommendation') = (week IS NOT NULL))
            )
            """,
            "CREATE INDEX library_words ON library USING gin (words)",
            "CREATE INDEX library_weeks ON library (week, position) WHERE kind = 'recommendation'",
            "CREATE INDEX library_hashes ON library (hash)",
        ]),
        (3, [
            // A push in one call: the user's row locked (pushes of one user take turns, so
            // positions are handed out and become visible in order), the receipt of an
            // earlier send of the same push answered again, else the events the hub lacks
            // numbered after the user's position and inserted, the position moved and the
            // receipt kept. One round trip instead of six. Each statement of a function
            // sees what committed before it began, so the receipt is read after the lock.
            """
            CREATE FUNCTION hub_push(p_user bigint, p_key text, p_ids uuid[], p_batches uuid[], p_streams uuid[], p_parents text[],
                                     p_types text[], p_versions integer[], p_times bigint[], p_payloads text[], p_blobs text[],
                                     p_checksums text[])
            RETURNS TABLE (o_accepted integer, o_duplicates integer, o_position bigint, o_before bigint, o_replayed boolean)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_before bigint;
                v_accepted integer;
                v_receipt record;
            BEGIN
                SELECT u.position INTO v_before FROM users u WHERE u.id = p_user FOR UPDATE;
                SELECT r.accepted, r.duplicates, r.position INTO v_receipt FROM push_receipts r WHERE r.user_id = p_user AND r.key = p_key;
                IF FOUND THEN
                    RETURN QUERY SELECT v_receipt.accepted, v_receipt.duplicates, v_receipt.position, v_before, true;
                    RETURN;
                END IF;
                WITH pushed AS (
                    SELECT * FROM unnest(p_ids, p_batches, p_streams, p_parents, p_types, p_versions, p_times, p_payloads, p_blobs, p_checksums)
                        WITH ORDINALITY AS x(i, b, s, pa, t, v, tm, pl, bl, c, n)),
                fresh AS (
                    SELECT x.*, row_number() OVER (ORDER BY x.n) AS k FROM pushed x
                    WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = p_user AND e.id = x.i)),
                stored AS (
                    INSERT INTO events (user_id, position, id, batch, stream, parent, type, schema_version, time_ms, payload, blobs, checksum)
                    SELECT p_user, v_before + f.k, f.i, f.b, f.s, NULLIF(f.pa, '')::uuid, f.t, f.v, f.tm, f.pl,
                           CASE WHEN f.bl = '' THEN '{}'::text[] ELSE string_to_array(f.bl, ',') END, f.c
                    FROM fresh f
                    RETURNING 1)
                SELECT count(*) INTO v_accepted FROM stored;
                IF v_accepted > 0 THEN
                    UPDATE users SET position = v_before + v_accepted WHERE id = p_user;
                END IF;
                INSERT INTO push_receipts (user_id, key, accepted, duplicates, position)
                VALUES (p_user, p_key, v_accepted, cardinality(p_ids) - v_accepted, v_before + v_accepted)
                ON CONFLICT (user_id, key) DO NOTHING;
                RETURN QUERY SELECT v_accepted, cardinality(p_ids) - v_accepted, v_before + v_accepted, v_before, false;
            END
            $$
            """,
        ]),
        (4, [
            // One plan for every push: planning the function's statements anew for each
            // call's values (PostgreSQL's default for the first calls, and whenever the
            // values look unusual) was a third of a push's cost in the database, and no
            // value changes which plan is right (make bench-hub, docs/hub.md).
            "ALTER FUNCTION hub_push SET plan_cache_mode = force_generic_plan",
            // A push with its session and picture checks, in the same one call: each round
            // trip cost the hub about as much as the push itself. No row: no such session.
            // A row with `o_missing`: pictures the user has not uploaded, nothing stored.
            // (hub_push stays for hubs of step 3 serving the same database meanwhile.)
            """
            CREATE FUNCTION hub_push_as(p_token_hash bytea, p_key text, p_ids uuid[], p_batches uuid[], p_streams uuid[], p_parents text[],
                                        p_types text[], p_versions integer[], p_times bigint[], p_payloads text[], p_blobs text[],
                                        p_checksums text[])
            RETURNS TABLE (o_user bigint, o_missing text[], o_accepted integer, o_duplicates integer, o_position bigint, o_before bigint,
                           o_replayed boolean)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_user bigint;
                v_session uuid;
                v_seen timestamptz;
                v_missing text[];
            BEGIN
                SELECT s.user_id, s.id, s.last_seen INTO v_user, v_session, v_seen FROM sessions s WHERE s.token_hash = p_token_hash;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                -- Written at most once a minute: a busy device would otherwise rewrite its row on every request.
                IF v_seen < now() - interval '1 minute' THEN
                    UPDATE sessions SET last_seen = now() WHERE id = v_session;
                END IF;
                -- A grant is never taken back while the user exists, so this needs no lock.
                SELECT array_agg(DISTINCT h ORDER BY h) INTO v_missing
                FROM unnest(p_blobs) AS x(b), unnest(string_to_array(x.b, ',')) AS h
                WHERE x.b <> '' AND NOT EXISTS (SELECT 1 FROM blob_grants g WHERE g.user_id = v_user AND g.hash = decode(h, 'hex'));
                IF v_missing IS NOT NULL THEN
                    RETURN QUERY SELECT v_user, v_missing, 0, 0, 0::bigint, 0::bigint, false;
                    RETURN;
                END IF;
                RETURN QUERY SELECT v_user, NULL::text[], p.o_accepted, p.o_duplicates, p.o_position, p.o_before, p.o_replayed
                    FROM hub_push(v_user, p_key, p_ids, p_batches, p_streams, p_parents, p_types, p_versions, p_times, p_payloads,
                                  p_blobs, p_checksums) AS p;
            END
            $$
            """,
            "ALTER FUNCTION hub_push_as SET plan_cache_mode = force_generic_plan",
        ]),
        (5, [
            // A push that checks what it builds on: the machine's checkpoint (the last event
            // it pushed before) and every event's parent must be here, else nothing is stored
            // and `o_lacking` says which is missing: the hub was restored from an older backup
            // and the machine sends everything again (docs/hub.md, "Backups"). A machine
            // doing so says `p_resending`: a parent it does not send is not to be had.
            // (hub_push_as stays for hubs of step 4 serving the same database meanwhile.)
            """
            CREATE FUNCTION hub_push_checked(p_token_hash bytea, p_key text, p_checkpoint uuid, p_resending boolean, p_ids uuid[],
                                             p_batches uuid[], p_streams uuid[], p_parents text[], p_types text[], p_versions integer[],
                                             p_times bigint[], p_payloads text[], p_blobs text[], p_checksums text[])
            RETURNS TABLE (o_user bigint, o_missing text[], o_lacking text, o_accepted integer, o_duplicates integer, o_position bigint,
                           o_before bigint, o_replayed boolean)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_user bigint;
                v_session uuid;
                v_seen timestamptz;
                v_missing text[];
                v_before bigint;
                v_orphan text;
                v_receipt record;
            BEGIN
                SELECT s.user_id, s.id, s.last_seen INTO v_user, v_session, v_seen FROM sessions s WHERE s.token_hash = p_token_hash;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                IF v_seen < now() - interval '1 minute' THEN
                    UPDATE sessions SET last_seen = now() WHERE id = v_session;
                END IF;
                SELECT array_agg(DISTINCT h ORDER BY h) INTO v_missing
                FROM unnest(p_blobs) AS x(b), unnest(string_to_array(x.b, ',')) AS h
                WHERE x.b <> '' AND NOT EXISTS (SELECT 1 FROM blob_grants g WHERE g.user_id = v_user AND g.hash = decode(h, 'hex'));
                IF v_missing IS NOT NULL THEN
                    RETURN QUERY SELECT v_user, v_missing, NULL::text, 0, 0, 0::bigint, 0::bigint, false;
                    RETURN;
                END IF;
                SELECT u.position INTO v_before FROM users u WHERE u.id = v_user FOR UPDATE;
                SELECT r.accepted, r.duplicates, r.position INTO v_receipt FROM push_receipts r WHERE r.user_id = v_user AND r.key = p_key;
                IF FOUND THEN
                    RETURN QUERY SELECT v_user, NULL::text[], NULL::text, v_receipt.accepted, v_receipt.duplicates, v_receipt.position,
                                        v_before, true;
                    RETURN;
                END IF;
                IF p_checkpoint IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = v_user AND e.id = p_checkpoint) THEN
                    RETURN QUERY SELECT v_user, NULL::text[], 'checkpoint ' || p_checkpoint::text, 0, 0, v_before, v_before, false;
                    RETURN;
                END IF;
                IF NOT p_resending THEN
                    SELECT x.pa INTO v_orphan FROM unnest(p_parents) AS x(pa)
                    WHERE x.pa <> '' AND NOT (x.pa::uuid = ANY (p_ids))
                      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = v_user AND e.id = x.pa::uuid)
                    LIMIT 1;
                    IF FOUND THEN
                        RETURN QUERY SELECT v_user, NULL::text[], 'parent ' || v_orphan, 0, 0, v_before, v_before, false;
                        RETURN;
                    END IF;
                END IF;
                -- hub_push locks the row again (its own lock: no wait) and stores the push.
                RETURN QUERY SELECT v_user, NULL::text[], NULL::text, p.o_accepted, p.o_duplicates, p.o_position, p.o_before, p.o_replayed
                    FROM hub_push(v_user, p_key, p_ids, p_batches, p_streams, p_parents, p_types, p_versions, p_times, p_payloads,
                                  p_blobs, p_checksums) AS p;
            END
            $$
            """,
            "ALTER FUNCTION hub_push_checked SET plan_cache_mode = force_generic_plan",
        ]),
        (6, [
            // Purge means purge (docs/hub.md, "Purge"): the streams of a purged creation are
            // remembered, their events emptied (type `$purged`, nothing of their content; pulls
            // skip them) and never stored again, and the pictures only they used taken off the
            // user (and off the hub when nobody else has them).
            """
            CREATE TABLE purged_streams (
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                stream uuid NOT NULL,
                PRIMARY KEY (user_id, stream)
            )
            """,
            """
            CREATE FUNCTION hub_purge(p_user bigint, p_creation uuid) RETURNS integer
            LANGUAGE plpgsql AS $$
            DECLARE
                v_streams uuid[];
                v_hashes text[];
                v_deleted integer;
            BEGIN
                -- The creation's history, and its gallery entry's stream (whose first event names it).
                SELECT array_agg(DISTINCT s) INTO v_streams FROM (
                    SELECT p_creation AS s
                    UNION SELECT e.stream FROM events e
                          WHERE e.user_id = p_user AND e.type = 'GalleryEntryAdded' AND lower(e.payload::jsonb ->> 'id') = p_creation::text
                ) AS x;
                INSERT INTO purged_streams (user_id, stream) SELECT p_user, s FROM unnest(v_streams) AS s ON CONFLICT DO NOTHING;
                SELECT array_agg(DISTINCT h) INTO v_hashes FROM events e, unnest(e.blobs) AS h
                WHERE e.user_id = p_user AND e.stream = ANY (v_streams);
                -- Emptied, not deleted: a row keeps its id and position, so a machine whose cursor
                -- or checkpoint is one of them is not taken for one that met a restored backup.
                UPDATE events e SET type = '$purged', payload = '', blobs = '{}', parent = NULL, schema_version = 0, checksum = ''
                WHERE e.user_id = p_user AND e.stream = ANY (v_streams) AND e.type <> '$purged';
                GET DIAGNOSTICS v_deleted = ROW_COUNT;
                IF v_hashes IS NOT NULL THEN
                    -- A picture another live creation (or a library entry) of the user uses stays theirs.
                    DELETE FROM blob_grants g
                    WHERE g.user_id = p_user AND encode(g.hash, 'hex') = ANY (v_hashes)
                      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = p_user AND encode(g.hash, 'hex') = ANY (e.blobs))
                      AND NOT EXISTS (SELECT 1 FROM library l WHERE l.owner_id = p_user AND (l.hash = g.hash OR l.base_hash = g.hash));
                    DELETE FROM blobs b
                    WHERE encode(b.hash, 'hex') = ANY (v_hashes)
                      AND NOT EXISTS (SELECT 1 FROM blob_grants g WHERE g.hash = b.hash)
                      AND NOT EXISTS (SELECT 1 FROM library l WHERE l.hash = b.hash OR l.base_hash = b.hash);
                END IF;
                RETURN v_deleted;
            END
            $$
            """,
            // A push stores nothing of a purged stream (an edit made offline to a purged
            // creation is dropped: counted with the duplicates), and a parent in a purged
            // stream is not asked for. Replaced in place: the same signature and answer, so
            // hubs of step 5 serving the same database meanwhile get the same behaviour.
            """
            CREATE OR REPLACE FUNCTION hub_push(p_user bigint, p_key text, p_ids uuid[], p_batches uuid[], p_streams uuid[], p_parents text[],
                                                p_types text[], p_versions integer[], p_times bigint[], p_payloads text[], p_blobs text[],
                                                p_checksums text[])
            RETURNS TABLE (o_accepted integer, o_duplicates integer, o_position bigint, o_before bigint, o_replayed boolean)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_before bigint;
                v_accepted integer;
                v_receipt record;
            BEGIN
                SELECT u.position INTO v_before FROM users u WHERE u.id = p_user FOR UPDATE;
                SELECT r.accepted, r.duplicates, r.position INTO v_receipt FROM push_receipts r WHERE r.user_id = p_user AND r.key = p_key;
                IF FOUND THEN
                    RETURN QUERY SELECT v_receipt.accepted, v_receipt.duplicates, v_receipt.position, v_before, true;
                    RETURN;
                END IF;
                WITH pushed AS (
                    SELECT * FROM unnest(p_ids, p_batches, p_streams, p_parents, p_types, p_versions, p_times, p_payloads, p_blobs, p_checksums)
                        WITH ORDINALITY AS x(i, b, s, pa, t, v, tm, pl, bl, c, n)),
                fresh AS (
                    SELECT x.*, row_number() OVER (ORDER BY x.n) AS k FROM pushed x
                    WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = p_user AND e.id = x.i)
                      AND NOT EXISTS (SELECT 1 FROM purged_streams ps WHERE ps.user_id = p_user AND ps.stream = x.s)),
                stored AS (
                    INSERT INTO events (user_id, position, id, batch, stream, parent, type, schema_version, time_ms, payload, blobs, checksum)
                    SELECT p_user, v_before + f.k, f.i, f.b, f.s, NULLIF(f.pa, '')::uuid, f.t, f.v, f.tm, f.pl,
                           CASE WHEN f.bl = '' THEN '{}'::text[] ELSE string_to_array(f.bl, ',') END, f.c
                    FROM fresh f
                    RETURNING 1)
                SELECT count(*) INTO v_accepted FROM stored;
                IF v_accepted > 0 THEN
                    UPDATE users SET position = v_before + v_accepted WHERE id = p_user;
                END IF;
                INSERT INTO push_receipts (user_id, key, accepted, duplicates, position)
                VALUES (p_user, p_key, v_accepted, cardinality(p_ids) - v_accepted, v_before + v_accepted)
                ON CONFLICT (user_id, key) DO NOTHING;
                RETURN QUERY SELECT v_accepted, cardinality(p_ids) - v_accepted, v_before + v_accepted, v_before, false;
            END
            $$
            """,
            "ALTER FUNCTION hub_push SET plan_cache_mode = force_generic_plan",
            """
            CREATE OR REPLACE FUNCTION hub_push_checked(p_token_hash bytea, p_key text, p_checkpoint uuid, p_resending boolean, p_ids uuid[],
                                                        p_batches uuid[], p_streams uuid[], p_parents text[], p_types text[], p_versions integer[],
                                                        p_times bigint[], p_payloads text[], p_blobs text[], p_checksums text[])
            RETURNS TABLE (o_user bigint, o_missing text[], o_lacking text, o_accepted integer, o_duplicates integer, o_position bigint,
                           o_before bigint, o_replayed boolean)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_user bigint;
                v_session uuid;
                v_seen timestamptz;
                v_missing text[];
                v_before bigint;
                v_orphan text;
                v_receipt record;
                v_purged uuid;
            BEGIN
                SELECT s.user_id, s.id, s.last_seen INTO v_user, v_session, v_seen FROM sessions s WHERE s.token_hash = p_token_hash;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                IF v_seen < now() - interval '1 minute' THEN
                    UPDATE sessions SET last_seen = now() WHERE id = v_session;
                END IF;
                -- The row lock first: a purge takes grants away under it, so the pictures
                -- are checked where no purge can run between the check and the insert.
                SELECT u.position INTO v_before FROM users u WHERE u.id = v_user FOR UPDATE;
                SELECT array_agg(DISTINCT h ORDER BY h) INTO v_missing
                FROM unnest(p_blobs, p_streams) AS x(b, s), unnest(string_to_array(x.b, ',')) AS h
                WHERE x.b <> '' AND NOT EXISTS (SELECT 1 FROM blob_grants g WHERE g.user_id = v_user AND g.hash = decode(h, 'hex'))
                  AND NOT EXISTS (SELECT 1 FROM purged_streams ps WHERE ps.user_id = v_user AND ps.stream = x.s);
                IF v_missing IS NOT NULL THEN
                    RETURN QUERY SELECT v_user, v_missing, NULL::text, 0, 0, 0::bigint, 0::bigint, false;
                    RETURN;
                END IF;
                SELECT r.accepted, r.duplicates, r.position INTO v_receipt FROM push_receipts r WHERE r.user_id = v_user AND r.key = p_key;
                IF FOUND THEN
                    RETURN QUERY SELECT v_user, NULL::text[], NULL::text, v_receipt.accepted, v_receipt.duplicates, v_receipt.position,
                                        v_before, true;
                    RETURN;
                END IF;
                IF p_checkpoint IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = v_user AND e.id = p_checkpoint) THEN
                    RETURN QUERY SELECT v_user, NULL::text[], 'checkpoint ' || p_checkpoint::text, 0, 0, v_before, v_before, false;
                    RETURN;
                END IF;
                IF NOT p_resending THEN
                    SELECT x.pa INTO v_orphan FROM unnest(p_parents, p_streams) AS x(pa, s)
                    WHERE x.pa <> '' AND NOT (x.pa::uuid = ANY (p_ids))
                      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = v_user AND e.id = x.pa::uuid)
                      AND NOT EXISTS (SELECT 1 FROM purged_streams ps WHERE ps.user_id = v_user AND ps.stream = x.s)
                    LIMIT 1;
                    IF FOUND THEN
                        RETURN QUERY SELECT v_user, NULL::text[], 'parent ' || v_orphan, 0, 0, v_before, v_before, false;
                        RETURN;
                    END IF;
                END IF;
                RETURN QUERY SELECT v_user, NULL::text[], NULL::text, p.o_accepted, p.o_duplicates, p.o_position, p.o_before, p.o_replayed
                    FROM hub_push(v_user, p_key, p_ids, p_batches, p_streams, p_parents, p_types, p_versions, p_times, p_payloads,
                                  p_blobs, p_checksums) AS p;
                -- A purge in the push is carried out now, every time it is sent (after a
                -- restore from an older backup it comes again, and purges again).
                FOR v_purged IN SELECT DISTINCT lower(x.pl::jsonb ->> 'id')::uuid FROM unnest(p_types, p_payloads) AS x(t, pl)
                                WHERE x.t = 'CreationPurged' LOOP
                    PERFORM hub_purge(v_user, v_purged);
                END LOOP;
            END
            $$
            """,
            "ALTER FUNCTION hub_push_checked SET plan_cache_mode = force_generic_plan",
        ]),
        (7, [
            // Quotas (`memery hub --quota-mb`): what each user keeps, in bytes (event payloads
            // and the pictures granted to them), kept current by the functions below; a push
            // past the quota (the connection's `memery.quota_bytes`) stores nothing and
            // raises MQ001, which the hub answers 413.
            "ALTER TABLE users ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0",
            """
            UPDATE users u SET stored_bytes =
                coalesce((SELECT sum(length(e.payload)) FROM events e WHERE e.user_id = u.id), 0)
                + coalesce((SELECT sum(b.size) FROM blob_grants g JOIN blobs b ON b.hash = g.hash WHERE g.user_id = u.id), 0)
            """,
            """
            CREATE OR REPLACE FUNCTION hub_push(p_user bigint, p_key text, p_ids uuid[], p_batches uuid[], p_streams uuid[], p_parents text[],
                                                p_types text[], p_versions integer[], p_times bigint[], p_payloads text[], p_blobs text[],
                                                p_checksums text[])
            RETURNS TABLE (o_accepted integer, o_duplicates integer, o_position bigint, o_before bigint, o_replayed boolean)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_before bigint;
                v_used bigint;
                v_accepted integer;
                v_bytes bigint;
                v_quota bigint;
                v_receipt record;
            BEGIN
                SELECT u.position, u.stored_bytes INTO v_before, v_used FROM users u WHERE u.id = p_user FOR UPDATE;
                SELECT r.accepted, r.duplicates, r.position INTO v_receipt FROM push_receipts r WHERE r.user_id = p_user AND r.key = p_key;
                IF FOUND THEN
                    RETURN QUERY SELECT v_receipt.accepted, v_receipt.duplicates, v_receipt.position, v_before, true;
                    RETURN;
                END IF;
                WITH pushed AS (
                    SELECT * FROM unnest(p_ids, p_batches, p_streams, p_parents, p_types, p_versions, p_times, p_payloads, p_blobs, p_checksums)
                        WITH ORDINALITY AS x(i, b, s, pa, t, v, tm, pl, bl, c, n)),
                -- An event of a purged stream is kept as an emptied row (its id and place, nothing
                -- of its content): the machine's checkpoint or a parent may be that id.
                fresh AS (
                    SELECT x.*, row_number() OVER (ORDER BY x.n) AS k,
                           EXISTS (SELECT 1 FROM purged_streams ps WHERE ps.user_id = p_user AND ps.stream = x.s) AS gone
                    FROM pushed x
                    WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = p_user AND e.id = x.i)),
                stored AS (
                    INSERT INTO events (user_id, position, id, batch, stream, parent, type, schema_version, time_ms, payload, blobs, checksum)
                    SELECT p_user, v_before + f.k, f.i, f.b, f.s, CASE WHEN f.gone THEN NULL ELSE NULLIF(f.pa, '')::uuid END,
                           CASE WHEN f.gone THEN '$purged' ELSE f.t END, CASE WHEN f.gone THEN 0 ELSE f.v END, f.tm,
                           CASE WHEN f.gone THEN '' ELSE f.pl END,
                           CASE WHEN f.gone OR f.bl = '' THEN '{}'::text[] ELSE string_to_array(f.bl, ',') END,
                           CASE WHEN f.gone THEN '' ELSE f.c END
                    FROM fresh f
                    RETURNING length(payload) AS size)
                SELECT count(*), coalesce(sum(size), 0) INTO v_accepted, v_bytes FROM stored;
                v_quota := nullif(current_setting('memery.quota_bytes', true), '')::bigint;
                IF v_quota IS NOT NULL AND v_bytes > 0 AND v_used + v_bytes > v_quota THEN
                    RAISE EXCEPTION 'over quota' USING ERRCODE = 'MQ001', DETAIL = v_used::text || ' ' || v_bytes::text || ' ' || v_quota::text;
                END IF;
                IF v_accepted > 0 THEN
                    UPDATE users SET position = v_before + v_accepted, stored_bytes = stored_bytes + v_bytes WHERE id = p_user;
                END IF;
                INSERT INTO push_receipts (user_id, key, accepted, duplicates, position)
                VALUES (p_user, p_key, v_accepted, cardinality(p_ids) - v_accepted, v_before + v_accepted)
                ON CONFLICT (user_id, key) DO NOTHING;
                RETURN QUERY SELECT v_accepted, cardinality(p_ids) - v_accepted, v_before + v_accepted, v_before, false;
            END
            $$
            """,
            "ALTER FUNCTION hub_push SET plan_cache_mode = force_generic_plan",
            """
            CREATE OR REPLACE FUNCTION hub_purge(p_user bigint, p_creation uuid) RETURNS integer
            LANGUAGE plpgsql AS $$
            DECLARE
                v_streams uuid[];
                v_hashes text[];
                v_deleted integer;
                v_freed bigint;
                v_pictures bigint;
            BEGIN
                -- Never the gallery's, garage's or templates' own streams; and a purge sent
                -- again (a replay, a resend) finds its work done.
                IF lower(p_creation::text) IN ('6a11e7a0-0000-4000-8000-000000000001', '6a7a6e00-0000-4000-8000-000000000002',
                                               '7e3b1a7e-0000-4000-8000-000000000003')
                   OR EXISTS (SELECT 1 FROM purged_streams ps WHERE ps.user_id = p_user AND ps.stream = p_creation) THEN
                    RETURN 0;
                END IF;
                SELECT array_agg(DISTINCT s) INTO v_streams FROM (
                    SELECT p_creation AS s
                    UNION SELECT e.stream FROM events e
                          WHERE e.user_id = p_user AND e.type = 'GalleryEntryAdded' AND lower(e.payload::jsonb ->> 'id') = p_creation::text
                ) AS x;
                INSERT INTO purged_streams (user_id, stream) SELECT p_user, s FROM unnest(v_streams) AS s ON CONFLICT DO NOTHING;
                SELECT array_agg(DISTINCT h) INTO v_hashes FROM events e, unnest(e.blobs) AS h
                WHERE e.user_id = p_user AND e.stream = ANY (v_streams);
                SELECT coalesce(sum(length(e.payload)), 0) INTO v_freed FROM events e
                WHERE e.user_id = p_user AND e.stream = ANY (v_streams) AND e.type <> '$purged';
                UPDATE events e SET type = '$purged', payload = '', blobs = '{}', parent = NULL, schema_version = 0, checksum = ''
                WHERE e.user_id = p_user AND e.stream = ANY (v_streams) AND e.type <> '$purged';
                GET DIAGNOSTICS v_deleted = ROW_COUNT;
                IF v_hashes IS NOT NULL THEN
                    WITH gone AS (
                        DELETE FROM blob_grants g
                        WHERE g.user_id = p_user AND encode(g.hash, 'hex') = ANY (v_hashes)
                          AND NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = p_user AND encode(g.hash, 'hex') = ANY (e.blobs))
                          AND NOT EXISTS (SELECT 1 FROM library l WHERE l.owner_id = p_user AND (l.hash = g.hash OR l.base_hash = g.hash))
                        RETURNING g.hash)
                    SELECT coalesce(sum(b.size), 0) INTO v_pictures FROM gone JOIN blobs b ON b.hash = gone.hash;
                    v_freed := v_freed + v_pictures;
                    DELETE FROM blobs b
                    WHERE b.hash IN (SELECT decode(h, 'hex') FROM unnest(v_hashes) AS h)
                      AND NOT EXISTS (SELECT 1 FROM blob_grants g WHERE g.hash = b.hash)
                      AND NOT EXISTS (SELECT 1 FROM library l WHERE l.hash = b.hash OR l.base_hash = b.hash);
                END IF;
                UPDATE users SET stored_bytes = greatest(0, stored_bytes - v_freed) WHERE id = p_user;
                RETURN v_deleted;
            END
            $$
            """,
        ]),
        (8, [
            // Pictures uploaded and never used (PictureSweeper): a grant is `in_use` once an
            // event or library entry of its user names the picture; one that is not, a grace
            // period after its upload, is taken away (and the picture off the hub when nobody
            // else has it). Grants from before this step start their grace period now.
            """
            ALTER TABLE blob_grants ADD COLUMN granted_at timestamptz NOT NULL DEFAULT now(),
                                    ADD COLUMN in_use boolean NOT NULL DEFAULT false
            """,
            "CREATE INDEX blob_grants_unconfirmed ON blob_grants (granted_at) WHERE NOT in_use",
            // One user's sweep, under their row lock as pushes check grants: a push either
            // stored its events before (and the picture is found in use) or finds the picture
            // missing after (and the machine uploads it again). Returns what was taken away.
            """
            CREATE FUNCTION hub_sweep_pictures(p_user bigint, p_grace interval) RETURNS TABLE (o_removed integer, o_freed bigint)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_hashes bytea[];
                v_removed integer;
                v_freed bigint;
            BEGIN
                PERFORM 1 FROM users u WHERE u.id = p_user FOR UPDATE SKIP LOCKED;
                IF NOT FOUND THEN  -- busy (a push, a purge): the next sweep
                    RETURN;
                END IF;
                WITH used AS (
                    SELECT DISTINCT decode(h, 'hex') AS hash FROM events e, unnest(e.blobs) AS h WHERE e.user_id = p_user
                    UNION SELECT l.hash FROM library l WHERE l.owner_id = p_user
                    UNION SELECT l.base_hash FROM library l WHERE l.owner_id = p_user AND l.base_hash IS NOT NULL)
                UPDATE blob_grants g SET in_use = true FROM used
                WHERE g.user_id = p_user AND NOT g.in_use AND g.hash = used.hash;
                WITH gone AS (
                    DELETE FROM blob_grants g WHERE g.user_id = p_user AND NOT g.in_use AND g.granted_at < now() - p_grace
                    RETURNING g.hash)
                SELECT count(*), coalesce(sum(b.size), 0), array_agg(gone.hash) INTO v_removed, v_freed, v_hashes
                FROM gone JOIN blobs b ON b.hash = gone.hash;
                IF v_removed = 0 THEN
                    RETURN;
                END IF;
                UPDATE users SET stored_bytes = greatest(0, stored_bytes - v_freed) WHERE id = p_user;
                -- A picture another upload is granting right now is locked by it: skipped, never waited for.
                DELETE FROM blobs b
                WHERE b.hash IN (SELECT c.hash FROM blobs c WHERE c.hash = ANY (v_hashes) FOR UPDATE SKIP LOCKED)
                  AND NOT EXISTS (SELECT 1 FROM blob_grants g WHERE g.hash = b.hash)
                  AND NOT EXISTS (SELECT 1 FROM library l WHERE l.hash = b.hash OR l.base_hash = b.hash);
                RETURN QUERY SELECT v_removed, v_freed;
            END
            $$
            """,
        ]),
        (9, [
            // A push that moved a user's position tells every hub on the database
            // (PositionListener), with the user's id and nothing of theirs. Called by the hub
            // after the push committed, in a transaction of its own that does not wait for the
            // disk: PostgreSQL serialises the commits of transactions that NOTIFY (a lock held
            // through the commit), and pushes of different users must not take turns on it.
            // A notice lost in a crash costs a watcher one 15 s keep-alive, nothing stored.
            """
            CREATE FUNCTION hub_notify_position(p_user bigint) RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM set_config('synchronous_commit', 'off', true);
                PERFORM pg_notify('memery_position', p_user::text);
            END
            $$
            """,
        ]),
        (10, [
            // The notice names the user's position too ("USER POSITION"), read after the push
            // committed: a hub's working copy (MemeryHubEditor) that has pulled that far, its
            // own push's notice among them, need not pull again. A listener reads either form.
            """
            CREATE OR REPLACE FUNCTION hub_notify_position(p_user bigint) RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
                v_position bigint;
            BEGIN
                SELECT position INTO v_position FROM users WHERE id = p_user;
                PERFORM set_config('synchronous_commit', 'off', true);
                PERFORM pg_notify('memery_position', p_user::text || ' ' || coalesce(v_position, 0)::text);
            END
            $$
            """,
        ]),
        (11, [
            // A session removed (a logout, a revoke, a password change, an account deleted,
            // or by hand) or an account's name or role changed tells every hub, with the
            // user's id: hubs keep the sessions they looked up lately (SessionCache) and
            // forget that user's; a table emptied (TRUNCATE) says "all". These are rare
            // writes, so the NOTIFY inside them costs nothing that pushes wait on.
            """
            CREATE FUNCTION hub_notify_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'TRUNCATE' THEN
                    PERFORM pg_notify('memery_sessions', 'all');
                ELSIF TG_TABLE_NAME = 'users' THEN
                    PERFORM pg_notify('memery_sessions', NEW.id::text);
                ELSE
                    PERFORM pg_notify('memery_sessions', OLD.user_id::text);
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER sessions_changed AFTER DELETE OR UPDATE OF token_hash, user_id ON sessions
            FOR EACH ROW EXECUTE FUNCTION hub_notify_sessions()
            """,
            """
            CREATE TRIGGER users_renamed AFTER UPDATE OF name, name_key, role ON users
            FOR EACH ROW EXECUTE FUNCTION hub_notify_sessions()
            """,
            "CREATE TRIGGER sessions_emptied AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION hub_notify_sessions()",
            "CREATE TRIGGER users_emptied AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION hub_notify_sessions()",
        ]),
        (12, [
            // How many purges a user's data has had: a purge sent ahead of its push
            // (POST /v1/purges) empties events without moving the user's position, so a
            // replica is read for a pull or a picture only once it has replayed as many
            // purges as the primary counts (ReplicaReads); before this, a lagging replica
            // could hand the purged creation back. Counted where a purge first marks its
            // streams, in the purge's own transaction: once per statement (a creation's
            // streams are marked in one), not per stream, to update the user's row less.
            "ALTER TABLE users ADD COLUMN purges bigint NOT NULL DEFAULT 0",
            """
            CREATE FUNCTION hub_count_purge() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE users SET purges = purges + 1 WHERE id IN (SELECT DISTINCT user_id FROM marked);
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER purge_counted AFTER INSERT ON purged_streams REFERENCING NEW TABLE AS marked
            FOR EACH STATEMENT EXECUTE FUNCTION hub_count_purge()
            """,
        ]),
        // A share is looked up by its owner and picture before one is made (Library.publish).
        (13, ["CREATE INDEX library_shares ON library (owner_id, hash) WHERE kind = 'share'"]),
    ]

    /// Applies the steps the database lacks; returns the versions applied.
    @discardableResult
    static func run(on client: PostgresClient, logger: Logger) async throws -> [Int] {
        try await client.withTransaction(logger: logger) { connection in
            // Any number for the lock, the same in every hub: 'memery' in ASCII.
            try await connection.query("SELECT pg_advisory_xact_lock(\(Int64(0x6d656d657279)))", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS hub_migrations (
                    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var done = Set<Int>()
            for try await version in try await connection.query("SELECT version FROM hub_migrations", logger: logger).decode(Int.self) {
                done.insert(version)
            }
            if let newest = done.max(), newest > steps.last?.version ?? 0 {
                throw HubStartError("the database's schema is at version \(newest), newer than this hub knows (\(steps.last?.version ?? 0)): run a newer memery")
            }
            var applied = [Int]()
            for step in steps where !done.contains(step.version) {
                for statement in step.sql { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query("INSERT INTO hub_migrations (version) VALUES (\(step.version))", logger: logger)
                applied.append(step.version)
            }
            if !applied.isEmpty { logger.info("migrated the hub's schema", metadata: ["versions": "\(applied)"]) }
            return applied
        }
    }
}
