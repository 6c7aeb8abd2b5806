/* SQLite in WAL mode doing the same appends as the memery store, in C with one prepared
 * statement: one durable transaction (synchronous=FULL) per BATCH events. With a fourth
 * argument "scan", it then reads every row back in order and prints rows per second too. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int compare(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

static void must(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) { fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db)); exit(1); }
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: sqlite_appends FILE COUNT BATCH\n"); return 2; }
    int count = atoi(argv[2]), batch = atoi(argv[3]);
    sqlite3 *db; sqlite3_stmt *insert;
    must(sqlite3_open(argv[1], &db), db, "open");
    must(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                          "CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, stream BLOB, version INTEGER, type TEXT, payload BLOB)",
                      NULL, NULL, NULL), db, "setup");
    must(sqlite3_prepare_v2(db, "INSERT INTO log VALUES (?, ?, ?, ?, ?)", -1, &insert, NULL), db, "prepare");
    char payload[180]; memset(payload, 'x', sizeof payload);
    double *latency = malloc(sizeof(double) * (count / batch + 1));
    int commits = 0;
    long long seq = 0;
    double start = now();
    for (int i = 0; i < count; i += batch) {
        double t0 = now();
        must(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), db, "begin");
        for (int j = 0; j < batch; j++) {
            seq++;
            sqlite3_bind_int64(insert, 1, seq);
            sqlite3_bind_blob(insert, 2, "0123456789abcdef", 16, SQLITE_STATIC);
            sqlite3_bind_int64(insert, 3, seq);
            sqlite3_bind_text(insert, 4, "TextLayerEdited", -1, SQLITE_STATIC);
            sqlite3_bind_blob(insert, 5, payload, sizeof payload, SQLITE_STATIC);
            must(sqlite3_step(insert), db, "insert");
            sqlite3_reset(insert);
        }
        must(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
        latency[commits++] = (now() - t0) * 1000;
    }
    double seconds = now() - start;
    qsort(latency, commits, sizeof(double), compare);
    printf("%.0f %.3f %.3f", count / seconds, latency[commits / 2], latency[commits * 99 / 100]);
    if (argc > 4 && strcmp(argv[4], "scan") == 0) {
        sqlite3_stmt *select;
        must(sqlite3_prepare_v2(db, "SELECT seq, stream, version, type, payload FROM log ORDER BY seq", -1, &select, NULL), db, "prepare");
        long long rows = 0, bytes = 0;
        double t0 = now();
        while (sqlite3_step(select) == SQLITE_ROW) {
            rows++;
            bytes += sqlite3_column_bytes(select, 4) + sqlite3_column_int64(select, 2);
        }
        printf(" %.0f", rows / (now() - t0) + (bytes & 0));
        sqlite3_finalize(select);
    }
    printf("\n");
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return 0;
}
