import Foundation
import Testing
import MemeryCore

/// A creation with a 600x400 base image, built through decide and evolve.
func startedCreation(name: String = "cat") throws -> Creation {
    var creation = Creation(id: UUID())
    for command in [CreationCommand.create(name: name),
                    .importBaseImage(BaseImage(blob: String(repeating: "ab", count: 32), width: 600, height: 400, format: "png"))] {
        creation = try creation.decide(command).reduce(creation) { $0.evolve($1) }
    }
    return creation
}

extension Creation {
    var texts: [String] { layers.compactMap { $0.text?.text } }

    func applying(_ command: CreationCommand) throws -> Creation {
        try decide(command).reduce(self) { $0.evolve($1) }
    }
}

@Suite struct DecideTests {
    @Test func aCreationIsMadeOnceAndTheNameIsTheGallerys() throws {
        let made = try Creation(id: UUID()).applying(.create(name: "Drake"))
        #expect(throws: DomainError.creationExists) { try made.decide(.create(name: "Drake 2")) }
        #expect(DomainError.nameTaken("drake").description == "a creation named \"drake\" already exists")
    }

    @Test(arguments: ["", "  ", " padded", "-dash", "tab\there"])
    func unusableNamesAreRefused(_ name: String) throws {
        #expect(throws: DomainError.self) { try Creation(id: UUID()).decide(.create(name: name)) }
    }

    @Test func captionsAreAddedThenReplacedThenRemoved() throws {
        var creation = try startedCreation()
        creation = try creation.applying(.setCaptions(top: "top text", bottom: "bottom text"))
        #expect(creation.caption(.top)?.text?.text == "top text")
        #expect(creation.caption(.bottom)?.text?.text == "bottom text")
        #expect(creation.textLayers.map(\.label) == ["L1", "L2"])
        // The default boxes hug the top and bottom edges across the width.
        let top = try #require(creation.caption(.top)).box
        let bottom = try #require(creation.caption(.bottom)).box
        #expect(top.y < 20 && top.w > 500)
        #expect(bottom.y + bottom.h > 380 && bottom.w > 500)

        let replaced = try creation.decide(.setCaptions(top: "new top", bottom: nil))
        #expect(replaced == [.textLayerEdited(.init(id: try #require(creation.layer("L1")).id, text: "new top", box: nil, style: nil))])
        creation = try creation.applying(.setCaptions(top: "new top", bottom: ""))
        #expect(creation.caption(.top)?.text?.text == "new top")
        #expect(creation.caption(.bottom) == nil)
        // A removed id is never reused.
        creation = try creation.applying(.setCaptions(top: nil, bottom: "again"))
        #expect(creation.caption(.bottom)?.label == "L3")
    }

    @Test func settingTheSameCaptionAgainCausesNoEvent() throws {
        let creation = try startedCreation().applying(.setCaptions(top: "same", bottom: nil))
        #expect(try creation.decide(.setCaptions(top: "same", bottom: nil)).isEmpty)
    }

    @Test func outOfRangeSizeIsRefusedNamingValueAndRange() throws {
        let creation = try startedCreation()
        do {
            _ = try creation.decide(.addText(role: .free, text: "hi", box: nil, style: .init(maxSize: 5000)))
            Issue.record("a size of 5000 should be refused")
        } catch let error as DomainError {
            #expect(error.description == "size must be between 4 and 2000, got 5000")
        }
        #expect(throws: DomainError.outOfRange(field: "outline width", value: -1, range: 0...200)) {
            try creation.decide(.addText(role: .free, text: "hi", box: nil, style: .init(outlineWidth: -1)))
        }
    }

    @Test func boxOutsideTheCanvasIsRefused() throws {
        let creation = try startedCreation()
        let box = Box(x: 700, y: 10, w: 50, h: 50)
        #expect(throws: DomainError.boxOutsideCanvas(box, width: 600, height: 400)) {
            try creation.decide(.addText(role: .free, text: "hi", box: box, style: .init()))
        }
        #expect(throws: DomainError.self) {
            try creation.decide(.addText(role: .free, text: "hi", box: Box(x: 0, y: 0, w: 0, h: 10), style: .init()))
        }
    }

    @Test(arguments: ["", "   ", " \t\n "])
    func emptyTextIsRefused(_ text: String) throws {
        #expect(throws: DomainError.emptyText) {
            try startedCreation().decide(.addText(role: .free, text: text, box: nil, style: .init()))
        }
        let boxed = try startedCreation().applying(.addText(role: .free, text: "words", box: nil, style: .init()))
        #expect(throws: DomainError.emptyText) { try boxed.decide(.editText(id: "L1", text: text, box: nil, style: .init())) }
    }

    /// A caption set to white space only is taken off, as an empty one is: it would show nothing.
    @Test func aCaptionOfSpacesIsTakenOffAsAnEmptyOneIs() throws {
        var creation = try startedCreation().applying(.setCaptions(top: "top", bottom: "bottom"))
        creation = try creation.applying(.setCaptions(top: "   ", bottom: nil))
        #expect(creation.texts == ["bottom"])
        #expect(try creation.decide(.setCaptions(top: " ", bottom: nil)).isEmpty)
    }

    @Test func freeTextTakesTheGivenStyleOverTheMemeDefault() throws {
        let creation = try startedCreation().applying(.addText(
            role: .free, text: "hello", box: Box(x: 10, y: 10, w: 200, h: 50),
            style: .init(font: "DejaVu Sans", fill: try Color(hex: "#ff0000"), align: .left, uppercase: false)))
        let layer = try #require(creation.textLayers.first?.text)
        #expect(layer.role == .free)
        #expect(layer.style.font == "DejaVu Sans")
        #expect(layer.style.fill == Color(red: 255, green: 0, blue: 0))
        #expect(layer.style.outline == .black)
        #expect(layer.style.align == .left)
        #expect(!layer.style.uppercase)
        #expect(layer.style.maxSize == TextStyle.meme(canvasHeight: 400).maxSize)
    }

    @Test func editChangesOnlyTheFieldsGiven() throws {
        var creation = try startedCreation().applying(.addText(role: .free, text: "a", box: nil, style: .init()))
        creation = try creation.applying(.editText(id: "L1", text: nil, box: nil, style: .init(maxSize: 30)))
        #expect(creation.texts == ["a"])
        #expect(creation.textLayers[0].text?.style.maxSize == 30)
        #expect(throws: DomainError.noSuchLayer("L9")) {
            try creation.decide(.editText(id: "L9", text: "x", box: nil, style: .init()))
        }
        #expect(throws: DomainError.noSuchLayer("L9")) { try creation.decide(.removeLayer(id: "L9")) }
    }

    @Test func textNeedsACreationWithAnImage() throws {
        #expect(throws: DomainError.creationNotStarted) {
            try Creation(id: UUID()).decide(.setCaptions(top: "x", bottom: nil))
        }
    }

    @Test func replayOfDecidedEventsRebuildsTheSameState() throws {
        var creation = Creation(id: UUID())
        var log = [CreationEvent]()
        let commands: [CreationCommand] = [
            .create(name: "replay"),
            .importBaseImage(BaseImage(blob: "00", width: 10, height: 10, format: "png")),
            .setCaptions(top: "a", bottom: "b"),
            .addText(role: .free, text: "c", box: nil, style: .init(maxSize: 8)),
            .editText(id: "L3", text: "d", box: nil, style: .init()),
            .removeLayer(id: "L1"),
        ]
        for command in commands {
            let events = try creation.decide(command)
            log += events
            creation = events.reduce(creation) { $0.evolve($1) }
        }
        #expect(Creation.replay(id: creation.id, log) == creation)
        #expect(creation.version == UInt64(log.count))
        #expect(creation.texts == ["b", "d"])
    }
}
