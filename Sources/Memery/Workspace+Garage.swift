public import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// The garage of imported images and the saved templates.
extension Workspace {
    // MARK: Garage

    public func garage() throws -> Garage { try garageStream.load(WellKnownStreams.garage).state }

    private func changeGarage(_ command: Garage.Command, blobs: [Data] = []) throws -> (Garage, [StoredEvent]) {
        try garageStream.decide(command, for: WellKnownStreams.garage, blobs: blobs)
    }

    /// Imports an image file into the garage (the same bytes are kept once).
    @discardableResult
    public func addToGarage(imageAt path: String, name: String? = nil, tags: [String] = []) throws -> Garage.Item {
        try addToGarage(storing: path, name: name, tags: tags).item
    }

    func addToGarage(storing path: String, name: String?, tags: [String]) throws -> (item: Garage.Item, stored: [StoredEvent]) {
        let (data, image, _) = try pictureReader.readImage(at: path)
        return try addToGarage(data, image, name: name, tags: tags)
    }

    func addToGarage(_ data: Data, _ image: BaseImage, name: String?, tags: [String]) throws -> (item: Garage.Item, stored: [StoredEvent]) {
        let (garage, stored) = try changeGarage(.add(image, name: name, tags: tags), blobs: [data])
        guard let item = garage.item(blob: image.blob) else { throw DomainError.noSuchGarageImage(image.blob) }
        return (item, stored)
    }

    @discardableResult
    public func removeFromGarage(_ reference: String) throws -> [RecordedEvent] {
        try changeGarage(.remove(reference)).1.recorded
    }

    /// Adds and removes tags of a garage image; returns it as it is now.
    @discardableResult
    public func tagInGarage(_ reference: String, add: [String], remove: [String] = []) throws -> (item: Garage.Item, stored: [RecordedEvent]) {
        // The item is found in the garage the change was decided on, not in one read before
        // it: a rename or removal by another writer in between cannot make it the wrong one.
        // (Tagging changes neither names nor pictures, so the reference still names it.)
        let (garage, stored) = try changeGarage(.tag(reference, add: add, remove: remove))
        return (try garage.find(reference), stored.recorded)
    }

    /// Starts a creation from a garage image.
    @discardableResult
    public func create(name: String, garageImage reference: String) throws -> Creation {
        let item = try garage().find(reference)
        return try creations.start(name, with: .importBaseImage(item.image), blobRefs: [item.image.blob])
    }

    /// Adds a garage image as a layer; returns its layer id.
    public func addImage(_ name: String, garageImage reference: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        try session(name).addImage(garageImage: reference, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip)
    }

    // MARK: Templates

    public func templates() throws -> Templates { try templateStream.load(WellKnownStreams.templates).state }

    /// Saves a creation's canvas, base image and text boxes as a template.
    @discardableResult
    public func saveTemplate(from name: String, as templateName: String) throws -> Templates.Template {
        try saveTemplate(storing: name, as: templateName).template
    }

    func saveTemplate(storing name: String, as templateName: String) throws -> (template: Templates.Template, stored: [StoredEvent]) {
        let creation = try creation(named: name)
        let (templates, stored) = try templateStream.decide(.save(creation, as: templateName), for: WellKnownStreams.templates,
                                                            blobRefs: creation.baseImage.map { [$0.blob] } ?? [])
        return (try templates.find(templateName), stored)
    }

    /// Takes a template off the list; creations started from it keep what they took.
    @discardableResult
    public func removeTemplate(_ templateName: String) throws -> [RecordedEvent] {
        try templateStream.decide(.remove(templateName), for: WellKnownStreams.templates).stored.recorded
    }

    /// Starts a creation from a template: its canvas, base image and text boxes.
    @discardableResult
    public func create(name: String, template templateName: String) throws -> Creation {
        let template = try templates().find(templateName)
        return try creations.start(name, with: .startFromTemplate(template), blobRefs: template.baseImage.map { [$0.blob] } ?? [])
    }
}

extension Workspace {
    /// A garage image as PNG, scaled down to `width` when it is wider (thumbnails).
    public func garagePicture(_ reference: String, width: Int? = nil) throws -> Picture {
        try pictures.png(of: try garage().find(reference).image, named: reference, width: width)
    }
}
