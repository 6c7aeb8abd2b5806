import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// The garage of imported images and the saved templates.
extension Workspace {
    // MARK: Garage

    func loadGarage() throws -> (garage: Garage, version: UInt64) {
        var garage = Garage()
        let stored = try store.events(in: WellKnownStreams.garage)
        for event in stored {
            do {
                garage.evolve(try Garage.Event.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload))
            } catch let error as EventDecodingError {
                throw StoreError.damaged(sequence: event.sequence, reason: error.description)
            }
        }
        return (garage, stored.last?.version ?? 0)
    }

    public func garage() throws -> Garage { try loadGarage().garage }

    private func changeGarage(blobs: [Data] = [], _ decide: (Garage) throws -> [Garage.Event]) throws -> (Garage, [StoredEvent]) {
        var attempt = 0
        while true {
            attempt += 1
            var (garage, version) = try loadGarage()
            let events = try decide(garage)
            do {
                let stored = try store.append(to: WellKnownStreams.garage, expectedVersion: version, events: try events.map {
                    NewEvent(type: $0.type, schemaVersion: 1, payload: try $0.encodedPayload())
                }, blobs: blobs)
                events.forEach { garage.evolve($0) }
                return (garage, stored)
            } catch StoreError.conflict where attempt < 5 {
                continue
            }
        }
    }

    /// Imports an image file into the garage (the same bytes are kept once).
    @discardableResult
    public func addToGarage(imageAt path: String, name: String? = nil, tags: [String] = []) throws -> Garage.Item {
        try addToGarage(storing: path, name: name, tags: tags).item
    }

    func addToGarage(storing path: String, name: String?, tags: [String]) throws -> (item: Garage.Item, stored: [StoredEvent]) {
        let (data, image, _) = try readImage(at: path)
        let (garage, stored) = try changeGarage(blobs: [data]) { try $0.decideAdd(image, name: name, tags: tags) }
        guard let item = garage.item(blob: image.blob) else { throw DomainError.noSuchGarageImage(image.blob) }
        return (item, stored)
    }

    @discardableResult
    public func removeFromGarage(_ reference: String) throws -> [StoredEvent] {
        try changeGarage { try $0.decideRemove(reference) }.1
    }

    /// Starts a creation from a garage image.
    @discardableResult
    public func create(name: String, garageImage reference: String) throws -> Creation {
        let item = try garage().find(reference)
        return try start(name, with: .importBaseImage(item.image), blobRefs: [item.image.blob])
    }

    /// Adds a garage image as a layer; returns its layer id.
    public func addImage(_ name: String, garageImage reference: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        try session(name).addImage(garageImage: reference, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip)
    }

    // MARK: Templates

    func loadTemplates() throws -> (templates: Templates, version: UInt64) {
        var templates = Templates()
        let stored = try store.events(in: WellKnownStreams.templates)
        for event in stored {
            do {
                templates.evolve(try Templates.decode(schemaVersion: event.schemaVersion, payload: event.payload))
            } catch let error as EventDecodingError {
                throw StoreError.damaged(sequence: event.sequence, reason: error.description)
            }
        }
        return (templates, stored.last?.version ?? 0)
    }

    public func templates() throws -> Templates { try loadTemplates().templates }

    /// Saves a creation's canvas, base image and text boxes as a template.
    @discardableResult
    public func saveTemplate(from name: String, as templateName: String) throws -> Templates.Template {
        try saveTemplate(storing: name, as: templateName).template
    }

    func saveTemplate(storing name: String, as templateName: String) throws -> (template: Templates.Template, stored: [StoredEvent]) {
        let creation = try creation(named: name)
        var attempt = 0
        while true {
            attempt += 1
            let (templates, version) = try loadTemplates()
            let template = try templates.decideSave(creation, as: templateName)
            do {
                let stored = try store.append(
                    to: WellKnownStreams.templates, expectedVersion: version,
                    events: [NewEvent(type: Templates.savedType, schemaVersion: 1, payload: try Templates.encode(template))],
                    blobRefs: template.baseImage.map { [$0.blob] } ?? [])
                return (template, stored)
            } catch StoreError.conflict where attempt < 5 {
                continue
            }
        }
    }

    /// Starts a creation from a template: its canvas, base image and text boxes.
    @discardableResult
    public func create(name: String, template templateName: String) throws -> Creation {
        let template = try templates().find(templateName)
        return try start(name, with: .startFromTemplate(template), blobRefs: template.baseImage.map { [$0.blob] } ?? [])
    }
}
