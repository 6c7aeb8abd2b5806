/* The ceiling for durable appends: one put and one synced commit per event, in C.
 * Values are 220 bytes, or size=BYTES. With the option "scan", it then reads every record
 * back with a cursor, the ceiling for replaying a log, and prints the records read per
 * second as a fourth figure.
 * With "keys=2" each event also puts a stream index key (16-byte stream id and 8-byte
 * version, to the sequence) in a second database, as memery's log and stream index do;
 * with "keys=3" also an id index key (a 16-byte time-ordered id, to the sequence), as
 * memery's format 2 and later do: the ceilings for memery's own appends. An id is made as
 * memery makes its ids (version-7 UUIDs): the clock's milliseconds, then random bits, which
 * within one millisecond are the id before's plus a random step (rising, as memery's). With
 * more than one key each database is written through a cursor kept for the transaction, as
 * memery writes them (a cursor put starts from the page the last one left). With more than
 * one key the log is a named database too, as memery's is: named databases are records of
 * the main one, so an append to the main one would be refused after their names. Every
 * call is checked, so a refused put cannot pass for a fast one. */
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static void check(int rc, const char *what) { if (rc) { fprintf(stderr, "%s: %s\n", what, mdb_strerror(rc)); exit(1); } }
static unsigned long long random_state = 0x9e3779b97f4a7c15ull;
static unsigned long long random_bits(void) {  /* xorshift64: fast, and enough for ids */
    random_state ^= random_state << 13; random_state ^= random_state >> 7; random_state ^= random_state << 17;
    return random_state;
}
static void new_id(unsigned char id[16]) {
    static unsigned long long last_millis, last_random;  /* the low 64 random bits, big-endian below */
    struct timespec t; clock_gettime(CLOCK_REALTIME, &t);
    unsigned long long millis = (unsigned long long)t.tv_sec * 1000 + t.tv_nsec / 1000000, a = random_bits();
    unsigned long long b = millis == last_millis ? last_random + (random_bits() & 0xffffffffull) + 1 : random_bits() >> 2;
    last_millis = millis; last_random = b;
    for (int i = 0; i < 6; i++) id[i] = (unsigned char)(millis >> (8 * (5 - i)));
    memcpy(id + 6, &a, 2);
    for (int i = 0; i < 8; i++) id[8 + i] = (unsigned char)(b >> (8 * (7 - i)));
}
static int compare(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: lmdb_appends DIR COUNT BATCH [keys=1|2|3] [size=BYTES] [scan]\n"); return 2; }
    int count = atoi(argv[2]), batch = atoi(argv[3]);
    MDB_env *env; MDB_txn *txn; MDB_dbi dbi, streams = 0, ids = 0;
    int keys = 1, size = 220, scan = 0;  /* options after BATCH: keys=N, size=BYTES, scan */
    for (int i = 4; i < argc; i++) {
        if (strncmp(argv[i], "keys=", 5) == 0) keys = atoi(argv[i] + 5);
        else if (strncmp(argv[i], "size=", 5) == 0) size = atoi(argv[i] + 5);
        else if (strcmp(argv[i], "scan") == 0) scan = 1;
        else { fprintf(stderr, "lmdb_appends: unknown option %s\n", argv[i]); return 2; }
    }
    if (size < 1 || size > 4096) { fprintf(stderr, "lmdb_appends: size=%d is not 1 to 4096\n", size); return 2; }
    unsigned char stream[16]; memset(stream, 0x5a, sizeof stream);
    check(mdb_env_create(&env), "mdb_env_create");
    check(mdb_env_set_mapsize(env, (size_t)1 << 32), "mdb_env_set_mapsize");
    check(mdb_env_set_maxdbs(env, 4), "mdb_env_set_maxdbs");
    check(mdb_env_open(env, argv[1], 0, 0644), argv[1]);
    const char *log = keys >= 2 ? "log" : NULL;
    char value[4096]; memset(value, 'x', sizeof value);
    double *latency = malloc(sizeof(double) * (count / batch + 1));
    double start = now();
    unsigned long long key = 0;
    int commits = 0;
    for (int i = 0; i < count; i += batch) {
        double t0 = now();
        check(mdb_txn_begin(env, NULL, 0, &txn), "mdb_txn_begin");
        check(mdb_dbi_open(txn, log, MDB_CREATE, &dbi), "mdb_dbi_open log");
        if (keys >= 2) check(mdb_dbi_open(txn, "streams", MDB_CREATE, &streams), "mdb_dbi_open streams");
        if (keys >= 3) check(mdb_dbi_open(txn, "ids", MDB_CREATE, &ids), "mdb_dbi_open ids");
        MDB_cursor *log_cursor = NULL, *stream_cursor = NULL, *id_cursor = NULL;
        if (keys >= 2) check(mdb_cursor_open(txn, dbi, &log_cursor), "mdb_cursor_open log");
        if (keys >= 2) check(mdb_cursor_open(txn, streams, &stream_cursor), "mdb_cursor_open streams");
        if (keys >= 3) check(mdb_cursor_open(txn, ids, &id_cursor), "mdb_cursor_open ids");
        for (int j = 0; j < batch; j++) {
            key++;
            unsigned long long big = __builtin_bswap64(key);
            MDB_val k = { sizeof big, &big }, v = { (size_t)size, value };
            if (log_cursor) check(mdb_cursor_put(log_cursor, &k, &v, MDB_APPEND), "mdb_cursor_put log");
            else check(mdb_put(txn, dbi, &k, &v, MDB_APPEND), "mdb_put log");
            if (keys >= 2) {  /* looked up and refused if present, as memery's (MDB_NOOVERWRITE) */
                unsigned char sk[24]; memcpy(sk, stream, 16); memcpy(sk + 16, &big, 8);
                MDB_val k2 = { sizeof sk, sk }, v2 = { sizeof big, &big };
                check(mdb_cursor_put(stream_cursor, &k2, &v2, MDB_NOOVERWRITE), "mdb_cursor_put streams");
            }
            if (keys >= 3) {
                unsigned char id[16]; new_id(id);
                MDB_val k3 = { sizeof id, id }, v3 = { sizeof big, &big };
                check(mdb_cursor_put(id_cursor, &k3, &v3, MDB_NOOVERWRITE), "mdb_cursor_put ids");
            }
        }
        if (log_cursor) mdb_cursor_close(log_cursor);
        if (stream_cursor) mdb_cursor_close(stream_cursor);
        if (id_cursor) mdb_cursor_close(id_cursor);
        check(mdb_txn_commit(txn), "mdb_txn_commit");
        latency[commits++] = (now() - t0) * 1000;
    }
    double seconds = now() - start;
    qsort(latency, commits, sizeof(double), compare);
    printf("%.0f %.3f %.3f", count / seconds, latency[commits / 2], latency[commits * 99 / 100]);
    if (scan) {
        MDB_cursor *cursor; MDB_val k, v;
        unsigned long long records = 0, bytes = 0;
        double t0 = now();
        mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
        mdb_dbi_open(txn, NULL, 0, &dbi);
        mdb_cursor_open(txn, dbi, &cursor);
        while (mdb_cursor_get(cursor, &k, &v, records ? MDB_NEXT : MDB_FIRST) == 0) {
            records++;
            bytes += ((const unsigned char *)v.mv_data)[v.mv_size - 1];  /* touch the value */
        }
        mdb_cursor_close(cursor);
        mdb_txn_abort(txn);
        printf(" %.0f", records / (now() - t0) + (bytes & 0));
    }
    printf("\n");
    return 0;
}
