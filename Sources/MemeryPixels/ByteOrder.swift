/// Reading big- and little-endian integers from a file's bytes, for the header and metadata
/// readers (the callers check the bounds).
func be16(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt16 { UInt16(b[at]) << 8 | UInt16(b[at + 1]) }
func be32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 { UInt32(be16(b, at)) << 16 | UInt32(be16(b, at + 2)) }
func le16(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
func le24(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 { UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 }
func le32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 { UInt32(le16(b, at)) | UInt32(le16(b, at + 2)) << 16 }
