import Foundation

/// Imported images kept by content — the same bytes are stored once — with a name and
/// tags, to start creations from or to add as layers. Its events live in its own stream.
public struct Garage: Decider, Equatable {
    public struct Item: Sendable, Equatable, Codable {
        public var image: BaseImage
        public var name: String
        public var tags: [String]
    }

    public enum Event: Sendable, Equatable {
        case added(Item)
        /// The entry leaves the garage; its bytes stay, as every edit that used them may need them.
        case removed(blob: String)
        /// The image's tags are now these.
        case tagged(blob: String, tags: [String])

        public var type: String {
            switch self {
            case .added: "GarageImageAdded"
            case .removed: "GarageImageRemoved"
            case .tagged: "GarageImageTagged"
            }
        }

        public static let types: Set<String> = ["GarageImageAdded", "GarageImageRemoved", "GarageImageTagged"]

        private struct Removed: Codable { var blob: String }
        private struct Tagged: Codable { var blob: String; var tags: [String] }

        public func encodedPayload() throws -> Data {
            let encoder = SortedJSONEncoder()
            switch self {
            case .added(let item): return try encoder.encode(item)
            case .removed(let blob): return try encoder.encode(Removed(blob: blob))
            case let .tagged(blob, tags): return try encoder.encode(Tagged(blob: blob, tags: tags))
            }
        }

        public static func decode(type: String, schemaVersion: Int, payload: Data) throws -> Event {
            guard types.contains(type) else { throw EventDecodingError.unknownType(type) }
            guard schemaVersion == 1 else { throw EventDecodingError.unsupportedVersion(type: type, version: schemaVersion, newest: 1) }
            do {
                if type == "GarageImageAdded" { return .added(try PayloadJSONDecoder().decode(Item.self, from: payload)) }
                if type == "GarageImageTagged" {
                    let tagged = try PayloadJSONDecoder().decode(Tagged.self, from: payload)
                    return .tagged(blob: tagged.blob, tags: tagged.tags)
                }
                return .removed(blob: try PayloadJSONDecoder().decode(Removed.self, from: payload).blob)
            } catch {
                throw EventDecodingError.malformed(type: type, detail: String(describing: error))
            }
        }
    }

    public private(set) var items: [Item] = []

    public init() {}

    public static func initialState(of stream: UUID) -> Garage { Garage() }

    public enum Command: Sendable, Equatable {
        case add(BaseImage, name: String?, tags: [String])
        case remove(String)
        /// Adds and removes tags of the image a reference names.
        case tag(String, add: [String], remove: [String])
    }

    public func decide(_ command: Command) throws -> [Event] {
        switch command {
        case let .add(image, name, tags): try decideAdd(image, name: name, tags: tags)
        case .remove(let reference): try decideRemove(reference)
        case let .tag(reference, add, remove): try decideTag(reference, add: add, remove: remove)
        }
    }

    public func evolve(_ event: Event) -> Garage {
        var next = self
        switch event {
        case .added(let item): if self.item(blob: item.image.blob) == nil { next.items.append(item) }
        case .removed(let blob): next.items.removeAll { $0.image.blob == blob }
        case let .tagged(blob, tags):
            if let index = items.firstIndex(where: { $0.image.blob == blob }) { next.items[index].tags = tags }
        }
        return next
    }

    public func item(blob: String) -> Item? { items.first { $0.image.blob == blob } }

    /// An image by name (ignoring case) or by the start of its hash (8 characters or more).
    public func find(_ reference: String) throws -> Item {
        let key = reference.lowercased()
        if let item = items.first(where: { $0.name.lowercased() == key }) { return item }
        if key.count >= 8 {
            let matches = items.filter { $0.image.blob.hasPrefix(key) }
            if matches.count == 1 { return matches[0] }
        }
        throw DomainError.noSuchGarageImage(reference)
    }

    /// Images whose name or a tag contains `query`, ignoring case; all of them for "".
    public func search(_ query: String) -> [Item] {
        let q = query.lowercased()
        guard !q.isEmpty else { return items }
        return items.filter { $0.name.lowercased().contains(q) || $0.tags.contains { $0.lowercased().contains(q) } }
    }

    public func decideAdd(_ image: BaseImage, name: String?, tags: [String]) throws -> [Event] {
        if let existing = item(blob: image.blob) { throw DomainError.alreadyInGarage(existing.name) }
        let base = name ?? image.sourceName.map { ($0 as NSString).deletingPathExtension } ?? "image"
        if let reason = Gallery.problem(withName: base) { throw DomainError.invalidName(base, reason: reason) }
        var chosen = base
        if name != nil {
            if items.contains(where: { $0.name.lowercased() == base.lowercased() }) { throw DomainError.garageNameTaken(base) }
        } else {
            var n = 2
            while items.contains(where: { $0.name.lowercased() == chosen.lowercased() }) { chosen = "\(base)-\(n)"; n += 1 }
        }
        let cleanTags = try Self.cleaned(tags)
        return [.added(Item(image: image, name: chosen, tags: cleanTags))]
    }

    /// The most characters a tag may have.
    public static let maxTagLength = 100

    /// Why a tag (already trimmed) cannot be used, or nil. A tag is printed by `garage list`
    /// and shown in the editor, so a control character or a bidirectional override in one
    /// would drive the reader's terminal or show text out of order.
    public static func problem(withTag tag: String) -> String? {
        if tag.count > maxTagLength { return "it is longer than \(maxTagLength) characters" }
        if tag.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "it contains a control character"
        }
        if tag.unicodeScalars.contains(where: PrintableText.isBidirectionalOverride) {
            return "it contains a bidirectional override"
        }
        return nil
    }

    /// Tags as given, trimmed, the empty ones dropped; throws for the first that cannot be used.
    static func cleaned(_ tags: [String]) throws -> [String] {
        let trimmed = tags.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for tag in trimmed {
            if let reason = problem(withTag: tag) { throw DomainError.invalidTag(tag, reason: reason) }
        }
        return trimmed
    }

    public func decideRemove(_ reference: String) throws -> [Event] {
        [.removed(blob: try find(reference).image.blob)]
    }

    /// Adds and removes tags (ignoring case; an added tag already there stays as it was);
    /// nothing when the tags do not change.
    public func decideTag(_ reference: String, add: [String], remove: [String]) throws -> [Event] {
        let item = try find(reference)
        let removing = Set(remove.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        var tags = item.tags.filter { !removing.contains($0.lowercased()) }
        for tag in try Self.cleaned(add) {
            if !tags.contains(where: { $0.lowercased() == tag.lowercased() }) { tags.append(tag) }
        }
        return tags == item.tags ? [] : [.tagged(blob: item.image.blob, tags: tags)]
    }
}

/// Saved starting points: a creation's canvas, base image and text boxes with their styles.
public struct Templates: Decider, Equatable {
    public struct Template: Sendable, Equatable, Codable {
        public var name: String
        public var canvas: Canvas
        public var baseImage: BaseImage?
        public var basePlacement: Transform
        /// Text layers, with their boxes, styles and words (new captions replace the words).
        public var layers: [Layer]
    }

    public enum Event: Sendable, Equatable {
        /// A template saved (one of the same name, ignoring case, is replaced).
        case saved(Template)
        /// The template leaves the list; creations started from it keep what they took.
        case removed(name: String)

        public var type: String {
            switch self {
            case .saved: "TemplateSaved"
            case .removed: "TemplateRemoved"
            }
        }

        public static let types: Set<String> = ["TemplateSaved", "TemplateRemoved"]

        private struct Removed: Codable { var name: String }

        public func encodedPayload() throws -> Data {
            switch self {
            case .saved(let template): return try SortedJSONEncoder().encode(template)
            case .removed(let name): return try SortedJSONEncoder().encode(Removed(name: name))
            }
        }

        public static func decode(type: String, schemaVersion: Int, payload: Data) throws -> Event {
            guard types.contains(type) else { throw EventDecodingError.unknownType(type) }
            guard schemaVersion == 1 else { throw EventDecodingError.unsupportedVersion(type: type, version: schemaVersion, newest: 1) }
            do {
                if type == "TemplateRemoved" { return .removed(name: try PayloadJSONDecoder().decode(Removed.self, from: payload).name) }
                return .saved(try PayloadJSONDecoder().decode(Template.self, from: payload))
            } catch {
                throw EventDecodingError.malformed(type: type, detail: String(describing: error))
            }
        }
    }

    public private(set) var all: [Template] = []

    public init() {}

    public static func initialState(of stream: UUID) -> Templates { Templates() }

    public enum Command: Sendable {
        /// Saves a creation's canvas, base image and text layers under a name.
        case save(Creation, as: String)
        case remove(String)
    }

    public func decide(_ command: Command) throws -> [Event] {
        switch command {
        case let .save(creation, name): return [.saved(try decideSave(creation, as: name))]
        case .remove(let name): return [.removed(name: try find(name).name)]
        }
    }

    public func evolve(_ event: Event) -> Templates {
        var next = self
        switch event {
        case .saved(let template):
            next.all.removeAll { $0.name.lowercased() == template.name.lowercased() }
            next.all.append(template)
        case .removed(let name):
            next.all.removeAll { $0.name.lowercased() == name.lowercased() }
        }
        return next
    }

    public func find(_ name: String) throws -> Template {
        guard let template = all.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw DomainError.noSuchTemplate(name)
        }
        return template
    }

    /// A template of `creation`: its canvas, base image and text layers.
    public func decideSave(_ creation: Creation, as name: String) throws -> Template {
        if let reason = Gallery.problem(withName: name) { throw DomainError.invalidName(name, reason: reason) }
        if all.contains(where: { $0.name.lowercased() == name.lowercased() }) { throw DomainError.templateNameTaken(name) }
        guard let canvas = creation.canvas else { throw DomainError.noCanvas }
        return Template(name: name, canvas: canvas, baseImage: creation.baseImage, basePlacement: creation.basePlacement,
                        layers: creation.textLayers)
    }
}
