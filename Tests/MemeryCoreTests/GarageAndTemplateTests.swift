import Foundation
import MemeryCore
import Testing

@Suite struct GarageAndTemplateTests {
    let cat = BaseImage(blob: String(repeating: "a1", count: 32), width: 10, height: 10, format: "png", sourceName: "cat.png")
    let dog = BaseImage(blob: String(repeating: "b2", count: 32), width: 10, height: 10, format: "jpeg", sourceName: "dog.jpg")

    @Test func garageKeepsImagesByContentWithNamesAndTags() throws {
        var garage = Garage()
        for event in try garage.decideAdd(cat, name: nil, tags: ["pet", " ", "Fluffy"]) { garage = garage.evolve(event) }
        #expect(garage.items.map(\.name) == ["cat"])
        #expect(garage.items[0].tags == ["pet", "Fluffy"])
        #expect(throws: DomainError.alreadyInGarage("cat")) { try garage.decideAdd(cat, name: "again", tags: []) }
        #expect(throws: DomainError.garageNameTaken("CAT")) { try garage.decideAdd(dog, name: "CAT", tags: []) }
        var renamed = dog
        renamed.sourceName = "cat.jpg"
        for event in try garage.decideAdd(renamed, name: nil, tags: ["pet"]) { garage = garage.evolve(event) }
        #expect(garage.items.map(\.name) == ["cat", "cat-2"], "a default name is made unique")
        #expect(garage.search("FLUF").map(\.name) == ["cat"])
        #expect(garage.search("pet").count == 2)
        #expect(garage.search("").count == 2)
        #expect(garage.search("zebra").isEmpty)
        #expect(try garage.find("Cat-2").image == renamed)
        #expect(try garage.find(String(repeating: "a1", count: 5)).name == "cat", "by the start of the hash")
        #expect(throws: DomainError.noSuchGarageImage("a1a1")) { try garage.find("a1a1") }
        for event in try garage.decideRemove("cat") { garage = garage.evolve(event) }
        #expect(garage.items.map(\.name) == ["cat-2"])
        for event: Garage.Event in [.added(garage.items[0]), .removed(blob: cat.blob)] {
            #expect(try Garage.Event.decode(type: event.type, schemaVersion: 1, payload: try event.encodedPayload()) == event)
        }
    }

    @Test func templatesKeepCanvasBaseAndTextBoxes() throws {
        var creation = try startedCreation()
        creation = try creation.applying(.setCaptions(top: "top", bottom: "bottom"))
        creation = try creation.applying(.addShape(.rect, box: Box(x: 0, y: 0, w: 5, h: 5), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        var templates = Templates()
        let template = try templates.decideSave(creation, as: "classic")
        #expect(template.layers.map(\.label) == ["L1", "L2"], "text boxes only")
        #expect(template.baseImage == creation.baseImage && template.canvas == creation.canvas)
        templates = templates.evolve(.saved(template))
        #expect(throws: DomainError.templateNameTaken("CLASSIC")) { try templates.decideSave(creation, as: "CLASSIC") }
        #expect(throws: DomainError.noSuchTemplate("other")) { try templates.find("other") }
        #expect(try Templates.Event.decode(type: "TemplateSaved", schemaVersion: 1, payload: try Templates.Event.saved(template).encodedPayload()) == .saved(template))

        var fresh = try Creation(id: UUID()).applying(.create(name: "from template"))
        fresh = try fresh.applying(.startFromTemplate(try templates.find("Classic")))
        #expect(fresh.canvas == creation.canvas && fresh.baseImage == creation.baseImage)
        #expect(fresh.layers.compactMap { $0.text?.text } == ["top", "bottom"])
        fresh = try fresh.applying(.setCaptions(top: "its own caption", bottom: nil))
        #expect(fresh.layers.compactMap { $0.text?.text } == ["its own caption", "bottom"])
        #expect(fresh.caption(.top)?.box == creation.caption(.top)?.box)

        let removed = try templates.decide(.remove("CLASSIC"))
        #expect(removed == [.removed(name: "classic")], "named as it was saved")
        #expect(templates.evolve(removed).all.isEmpty)
        #expect(throws: DomainError.noSuchTemplate("gone")) { try templates.decide(.remove("gone")) }
        #expect(try Templates.Event.decode(type: "TemplateRemoved", schemaVersion: 1, payload: try removed[0].encodedPayload()) == removed[0])
    }
}
