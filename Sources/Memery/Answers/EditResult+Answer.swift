/// What one edit did, as `--json` and the HTTP API report it: the sequence stored (null when
/// nothing changed), the creation and its version, and what the edit made or moved to.
extension EditResult: Encodable {
    enum Keys: String, CodingKey { case seq, creation, version, layer, layerId, filter, head, image }
    struct Head: Encodable { var version: UInt64; var summary: String }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(sequence, forKey: .seq)
        try container.encodeIfPresent(creation, forKey: .creation)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encodeIfPresent(layer, forKey: .layer)
        try container.encodeIfPresent(layerID, forKey: .layerId)
        try container.encodeIfPresent(filter, forKey: .filter)
        try container.encodeIfPresent(head.map { Head(version: $0.version, summary: $0.summary) }, forKey: .head)
        try container.encodeIfPresent(garageItem?.name, forKey: .image)
    }
}
