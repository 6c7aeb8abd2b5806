/* How a memery store's space is used: pages of each LMDB database, and what the snapshots
   database holds (snapshots, history-index checkpoints, nodes, the rest). Debian ships no
   mdb_stat here, so this small reader of the same numbers is kept with the benchmarks.
     cc -O2 -o store-pages scripts/store-pages.c -llmdb && ./store-pages STORE_DIR      */
#include <lmdb.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: store-pages STORE_DIR\n"); return 2; }
    MDB_env *env; MDB_txn *txn; MDB_dbi dbi; MDB_stat st; MDB_envinfo info;
    mdb_env_create(&env);
    mdb_env_set_maxdbs(env, 16);
    mdb_env_set_mapsize(env, (size_t)1 << 34);
    int rc = mdb_env_open(env, argv[1], MDB_RDONLY, 0644);
    if (rc) { fprintf(stderr, "store-pages: %s: %s\n", argv[1], mdb_strerror(rc)); return 1; }
    mdb_env_info(env, &info);
    printf("pages used up to %zu (%.1f MB)\n", info.me_last_pgno, info.me_last_pgno * 4096 / 1e6);
    const char *names[] = {"log", "streams", "blobs", "claims", "meta", "blobrefs", "snapshots", "ids"};
    mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
    for (int i = 0; i < 8; i++) {
        if (mdb_dbi_open(txn, names[i], 0, &dbi)) continue;
        mdb_stat(txn, dbi, &st);
        size_t pages = st.ms_branch_pages + st.ms_leaf_pages + st.ms_overflow_pages;
        printf("%-10s entries %8zu depth %u pages %7zu (%.1f MB; overflow %zu)\n",
               names[i], st.ms_entries, st.ms_depth, pages, pages * 4096 / 1e6, st.ms_overflow_pages);
        if (strcmp(names[i], "snapshots")) continue;
        /* A snapshot is under a stream's id alone; a history index's records follow the id
           with a letter: s a checkpoint, h a node (or the index's own record), g a move. */
        MDB_cursor *cursor; MDB_val k, v; size_t count[4] = {0}, bytes[4] = {0};
        mdb_cursor_open(txn, dbi, &cursor);
        while (!mdb_cursor_get(cursor, &k, &v, MDB_NEXT)) {
            char kind = k.mv_size > 16 ? ((char *)k.mv_data)[16] : 0;
            int t = kind == 0 ? 0 : kind == 's' ? 1 : kind == 'h' ? 2 : 3;
            count[t]++;
            bytes[t] += k.mv_size + v.mv_size;
        }
        printf("  snapshots %zu (%.1f MB), checkpoints %zu (%.1f MB), nodes %zu (%.1f MB), moves %zu (%.1f MB)\n",
               count[0], bytes[0] / 1e6, count[1], bytes[1] / 1e6, count[2], bytes[2] / 1e6, count[3], bytes[3] / 1e6);
    }
    mdb_txn_abort(txn);
    mdb_env_close(env);
    return 0;
}
