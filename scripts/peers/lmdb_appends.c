/* The ceiling for durable appends: one put and one synced commit per event, in C.
 * With a fourth argument "scan", it then reads every record back with a cursor, the
 * ceiling for replaying a log, and prints the records read per second as a fourth figure.
 * With "keys=2" each event also puts a stream index key (16-byte stream id and 8-byte
 * version, to the sequence) in a second database, as memery's log and stream index do;
 * with "keys=3" also an id index key (a 16-byte time-ordered id, to the sequence), as
 * memery's format 2 and later do: the ceilings for memery's own appends. */
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int compare(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: lmdb_appends DIR COUNT BATCH\n"); return 2; }
    int count = atoi(argv[2]), batch = atoi(argv[3]);
    MDB_env *env; MDB_txn *txn; MDB_dbi dbi, streams = 0, ids = 0;
    int keys = argc > 4 && strncmp(argv[4], "keys=", 5) == 0 ? atoi(argv[4] + 5) : 1;
    unsigned char stream[16]; memset(stream, 0x5a, sizeof stream);
    mdb_env_create(&env);
    mdb_env_set_mapsize(env, (size_t)1 << 32);
    mdb_env_set_maxdbs(env, 4);
    if (mdb_env_open(env, argv[1], 0, 0644)) { fprintf(stderr, "cannot open %s\n", argv[1]); return 1; }
    char value[220]; memset(value, 'x', sizeof value);
    double *latency = malloc(sizeof(double) * (count / batch + 1));
    double start = now();
    unsigned long long key = 0;
    int commits = 0;
    for (int i = 0; i < count; i += batch) {
        double t0 = now();
        mdb_txn_begin(env, NULL, 0, &txn);
        mdb_dbi_open(txn, NULL, 0, &dbi);
        if (keys >= 2) mdb_dbi_open(txn, "streams", MDB_CREATE, &streams);
        if (keys >= 3) mdb_dbi_open(txn, "ids", MDB_CREATE, &ids);
        for (int j = 0; j < batch; j++) {
            key++;
            unsigned long long big = __builtin_bswap64(key);
            MDB_val k = { sizeof big, &big }, v = { sizeof value, value };
            mdb_put(txn, dbi, &k, &v, MDB_APPEND);
            if (keys >= 2) {  /* looked up and refused if present, as memery's (MDB_NOOVERWRITE) */
                unsigned char sk[24]; memcpy(sk, stream, 16); memcpy(sk + 16, &big, 8);
                MDB_val k2 = { sizeof sk, sk }, v2 = { sizeof big, &big };
                if (mdb_put(txn, streams, &k2, &v2, MDB_NOOVERWRITE)) { fprintf(stderr, "put failed\n"); return 1; }
            }
            if (keys >= 3) {
                unsigned char id[16]; memcpy(id, &big, 8); memset(id + 8, 0x33, 8);
                MDB_val k3 = { sizeof id, id }, v3 = { sizeof big, &big };
                if (mdb_put(txn, ids, &k3, &v3, MDB_NOOVERWRITE)) { fprintf(stderr, "put failed\n"); return 1; }
            }
        }
        if (mdb_txn_commit(txn)) { fprintf(stderr, "commit failed\n"); return 1; }
        latency[commits++] = (now() - t0) * 1000;
    }
    double seconds = now() - start;
    qsort(latency, commits, sizeof(double), compare);
    printf("%.0f %.3f %.3f", count / seconds, latency[commits / 2], latency[commits * 99 / 100]);
    if (argc > 4 && strcmp(argv[4], "scan") == 0) {
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
