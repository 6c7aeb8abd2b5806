"""SQLite in WAL mode doing the same appends: one durable transaction per BATCH events."""
import sqlite3, sys, time

path, count, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, stream BLOB, version INTEGER, type TEXT, payload BLOB)")
payload = b"x" * 180
latencies = []
start = time.perf_counter()
seq = 0
for i in range(0, count, batch):
    t0 = time.perf_counter()
    db.execute("BEGIN")
    for j in range(batch):
        seq += 1
        db.execute("INSERT INTO log VALUES (?, ?, ?, ?, ?)", (seq, b"0123456789abcdef", seq, "TextLayerEdited", payload))
    db.execute("COMMIT")
    latencies.append((time.perf_counter() - t0) * 1000)
seconds = time.perf_counter() - start
latencies.sort()
print(f"{count / seconds:.0f} {latencies[len(latencies) // 2]:.3f} {latencies[len(latencies) * 99 // 100]:.3f}")
