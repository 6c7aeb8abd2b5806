/* The mean size, in whole bytes, of the values of one named database of an LMDB store:
 * bench-peers reads memery's log with it, so that the C ceilings put records of the size
 * memery's are in the same run, not of a size written down once. */
#include <lmdb.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: lmdb_mean_size DIR DATABASE\n"); return 2; }
    MDB_env *env; MDB_txn *txn; MDB_dbi dbi; MDB_cursor *cursor; MDB_val key, value;
    unsigned long long records = 0, bytes = 0;
    int rc;
    if ((rc = mdb_env_create(&env)) || (rc = mdb_env_set_maxdbs(env, 64)) ||
        (rc = mdb_env_open(env, argv[1], MDB_RDONLY, 0)) || (rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn)) ||
        (rc = mdb_dbi_open(txn, argv[2], 0, &dbi)) || (rc = mdb_cursor_open(txn, dbi, &cursor))) {
        fprintf(stderr, "lmdb_mean_size: %s %s: %s\n", argv[1], argv[2], mdb_strerror(rc));
        return 1;
    }
    while ((rc = mdb_cursor_get(cursor, &key, &value, records ? MDB_NEXT : MDB_FIRST)) == 0) {
        records++;
        bytes += value.mv_size;
    }
    if (rc != MDB_NOTFOUND || records == 0) { fprintf(stderr, "lmdb_mean_size: no records read (%s)\n", mdb_strerror(rc)); return 1; }
    printf("%llu\n", (bytes + records / 2) / records);
    return 0;
}
