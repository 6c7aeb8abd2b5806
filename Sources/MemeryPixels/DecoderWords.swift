/// What a decoder library's error means, in words a person can act on: libjpeg's "Improper
/// call to JPEG library in state 205" is a file cut short, libpng's "K[D2]B[11]: invalid chunk
/// type" is garbled bytes. A message no rule knows keeps the library's words, marked as theirs.
enum DecoderWords {
    /// How the libraries say an allocation failed: glib's "failed to allocate", Swift's "Could
    /// not allocate memory", gdk-pixbuf's "Not enough memory" and "Insufficient memory",
    /// libc's, Rust's "memory allocation of N bytes failed" (librsvg).
    static let outOfMemoryClues = ["insufficient memory", "not enough memory", "out of memory", "allocate", "allocation"]

    static func meansOutOfMemory(_ said: String) -> Bool {
        let lowered = said.lowercased()
        return outOfMemoryClues.contains(where: lowered.contains)
    }

    /// What a decoder says when the file is fine but uses something it does not read.
    static let unsupportedClues = ["unsupported", "not supported", "not yet implemented", "not implemented"]

    /// The feature a decoder declined, in plain words where they are known.
    static func feature(_ said: String) -> String {
        let lowered = said.lowercased()
        if lowered.contains("image sequences") { return "an animation: AVIF image sequences are not read" }
        return said
    }

    /// Whether `said` is the decoder declining a feature rather than finding damage.
    static func meansUnsupported(_ said: String) -> Bool {
        let lowered = said.lowercased()
        return !meansOutOfMemory(said) && unsupportedClues.contains(where: lowered.contains)
    }

    private static let rules: [(clues: [String], meaning: String)] = [
        (outOfMemoryClues, "the decoder ran out of memory"),
        // libavif's words (avifResultToString), which the AVIF loader passes on.
        (["invalid ftyp"], "its header is damaged, or it is not really that kind of file"),
        (["missing or empty image item", "no content"], "it holds no picture: its picture item is missing or empty"),
        (["planes size mismatch", "don't match ispe"], "the size it declares does not match its data"),
        (["invalid image grid"], "its picture is made of tiles that do not fit together"),
        (["has zero width or height"], "its crop or turn leaves no pixels"),
        // librsvg's words for an SVG: its XML, and drawings it gives up on.
        (["entity reference loop"], "its XML expands entities without end (a \"billion laughs\" file)"),
        (["entity '"], "it uses an XML entity the file does not define (entities from outside the file are never read)"),
        (["xml parse error"], "its XML is damaged: it is not well-formed"),
        (["error displaying image"], "its drawing could not be drawn (it may refer to itself, or hold more elements than are drawn)"),
        (["improper call to jpeg library", "premature end", "not all frames", "truncated", "missing some data",
          "unexpected end", "end of file", "end-of-file", "too short", "ends early"],
         "the file ends before the picture does (it was probably cut short while being copied or downloaded)"),
        (["bmff parsing", "failed to load"],
         "its data is damaged or cut short"),
        (["crc error", "checksum"],
         "a checksum does not match: some of its bytes were changed"),
        (["dimensions", "width of 0", "height of 0"],
         "the size it declares does not match its data"),
        (["palette", "colormap", "color map"],
         "its colour palette is damaged or missing"),
        (["header", "not a ", "does not appear", "was not defined"],
         "its header is damaged, or it is not really that kind of file"),
        (["invalid chunk type", "adaptive filter", "lzw", "bad code", "huffman", "corrupt jpeg data", "bogus marker",
          "file structure", "decode webp buffer", "could not decode", "failed to decode", "decompress", "invalid",
          "decoding of color planes failed", "decoding of alpha plane failed"],
         "its compressed picture data is garbled"),
        (unsupportedClues, "it uses a feature of its format that the decoder does not support"),
    ]

    /// The plain meaning of `said`, followed by nothing else when a rule knows it.
    static func plain(_ said: String) -> String {
        let lowered = said.lowercased()
        if let rule = rules.first(where: { $0.clues.contains(where: lowered.contains) }) { return rule.meaning }
        return "the decoder could not read it (it said: \(said))"
    }
}
