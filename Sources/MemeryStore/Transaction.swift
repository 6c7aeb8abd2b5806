import CLMDB

/// A transaction inside `LMDBEnvironment.read` or `.write`; valid only inside that closure.
public struct Transaction {
    let handle: OpaquePointer

    /// The value under `key`, copied out of the map, or nil.
    public func get(_ dbi: MDB_dbi, _ key: [UInt8]) throws -> [UInt8]? {
        try get(dbi, key, prefix: .max)
    }

    /// The first `prefix` bytes of the value under `key` (all of it when shorter), or nil:
    /// a header read without copying a large value out of the map.
    public func get(_ dbi: MDB_dbi, _ key: [UInt8], prefix: Int) throws -> [UInt8]? {
        try withValue(dbi, key) { Array(UnsafeRawBufferPointer(rebasing: $0.prefix(prefix))) }
    }

    /// `body` over the value under `key` in the map, without copying it out; nil when the key
    /// is absent. The buffer lives only during the call.
    public func withValue<T>(_ dbi: MDB_dbi, _ key: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T? {
        try key.withUnsafeBytes { keyBytes in
            var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            var v = MDB_val()
            let rc = mdb_get(handle, dbi, &k, &v)
            if rc == MDB_NOTFOUND { return nil }
            try LMDBError.check(rc, "mdb_get")
            return try body(UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
        }
    }

    /// Stores `value` under `key`. Returns false when `noOverwrite` and the key exists.
    @discardableResult
    public func put(_ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8], append: Bool = false, noOverwrite: Bool = false) throws -> Bool {
        var flags: UInt32 = 0
        if append { flags |= UInt32(MDB_APPEND) }
        if noOverwrite { flags |= UInt32(MDB_NOOVERWRITE) }
        return try key.withUnsafeBytes { keyBytes in
            try value.withUnsafeBytes { valueBytes in
                var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                var v = MDB_val(mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                let rc = mdb_put(handle, dbi, &k, &v, flags)
                if rc == MDB_KEYEXIST && noOverwrite { return false }
                try LMDBError.check(rc, "mdb_put")
                return true
            }
        }
    }

    /// Removes `key`; returns false when it was not there.
    @discardableResult
    public func delete(_ dbi: MDB_dbi, _ key: [UInt8]) throws -> Bool {
        try key.withUnsafeBytes { keyBytes in
            var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            let rc = mdb_del(handle, dbi, &k, nil)
            if rc == MDB_NOTFOUND { return false }
            try LMDBError.check(rc, "mdb_del")
            return true
        }
    }

    /// Visits entries in key order from the first key >= `start` (or the first key) while
    /// `body` returns true. The buffers point into the map and live only during the call.
    public func scan(_ dbi: MDB_dbi, from start: [UInt8]? = nil,
                     _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        try withCursor(dbi) { cursor in
            var k = MDB_val(), v = MDB_val()
            var rc = start.map { seek(cursor, atLeast: $0, &k, &v) } ?? mdb_cursor_get(cursor, &k, &v, MDB_FIRST)
            while rc == MDB_SUCCESS {
                guard try body(UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
                               UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)) else { return }
                rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { try LMDBError.check(rc, "mdb_cursor_get") }
        }
    }

    /// The greatest key in the database that is <= `key` (or the last key when `key` is nil).
    public func lastKey(_ dbi: MDB_dbi, atMost key: [UInt8]? = nil) throws -> [UInt8]? {
        try withCursor(dbi) { cursor in
            var k = MDB_val(), v = MDB_val()
            var rc: Int32
            if let key {
                rc = seek(cursor, atLeast: key, &k, &v)
                if rc == MDB_SUCCESS {
                    if UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size).elementsEqual(key) { return key }
                    rc = mdb_cursor_get(cursor, &k, &v, MDB_PREV)
                } else if rc == MDB_NOTFOUND {
                    rc = mdb_cursor_get(cursor, &k, &v, MDB_LAST)  // every key is smaller
                }
            } else {
                rc = mdb_cursor_get(cursor, &k, &v, MDB_LAST)
            }
            if rc == MDB_NOTFOUND { return nil }
            try LMDBError.check(rc, "mdb_cursor_get")
            return Array(UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size))
        }
    }

    private func withCursor<T>(_ dbi: MDB_dbi, _ body: (OpaquePointer?) throws -> T) throws -> T {
        var cursor: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(handle, dbi, &cursor), "mdb_cursor_open")
        defer { mdb_cursor_close(cursor) }
        return try body(cursor)
    }

    /// Positions the cursor at the first key >= `key`; on success `k` and `v` point into the map.
    private func seek(_ cursor: OpaquePointer?, atLeast key: [UInt8], _ k: inout MDB_val, _ v: inout MDB_val) -> Int32 {
        key.withUnsafeBytes { keyBytes in
            k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_cursor_get(cursor, &k, &v, MDB_SET_RANGE)
        }
    }

    /// How many entries the database holds.
    public func count(_ dbi: MDB_dbi) throws -> Int {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(handle, dbi, &stat), "mdb_stat")
        return stat.ms_entries
    }
}
