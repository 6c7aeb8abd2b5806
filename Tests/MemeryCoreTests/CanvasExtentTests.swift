import Foundation
import Testing
import MemeryCore

/// Growing the canvas and fitting it to its content: one event each way, captions re-fit,
/// everything else keeps its place on the picture, and limits are named.
@Suite struct CanvasExtentTests {
    let limit = Canvas.defaultMaxPixels

    @Test func extendingAddsRoomAndKeepsEverythingWhereItWasOnThePicture() throws {
        var creation = try startedCreation().applying(.setCaptions(top: "top", bottom: "bottom"))
        creation = try creation.applying(.addText(role: .free, text: "free", box: Box(x: 100, y: 100, w: 200, h: 50), style: .init()))
        let extended = try creation.applying(.extendCanvas(CanvasMargins(left: 40, top: 300), background: nil, maxPixels: limit))
        #expect(extended.width == 640 && extended.height == 700)
        #expect(extended.canvas?.background == .white, "white behind a photo when no colour is named")
        #expect(extended.basePlacement.x == 340 && extended.basePlacement.y == 500)
        #expect(try #require(extended.layer("L3")).box == Box(x: 140, y: 400, w: 200, h: 50))
        // Captions belong to the canvas: the bottom one sits at the new bottom edge.
        let bottom = try #require(extended.caption(.bottom)).box
        #expect(bottom.y + bottom.h > 680 && bottom.w > 580)
        #expect(try #require(extended.caption(.top)).box.y < 20)
        // Replaying the stored events gives the same state.
        let events = try creation.decide(.extendCanvas(CanvasMargins(left: 40, top: 300), background: nil, maxPixels: limit))
        #expect(events == [.canvasExtended(.init(left: 40, top: 300, right: 0, bottom: 0, background: .white))])
    }

    @Test func aBlankCanvasKeepsItsColourUnlessAnotherIsNamed() throws {
        var creation = try Creation(id: UUID()).applying(.create(name: "blank"))
        let blue = try Color(parsing: "#2040ff")
        creation = try creation.applying(.createCanvas(width: 300, height: 200, background: blue))
        #expect(try creation.applying(.extendCanvas(CanvasMargins(right: 10), background: nil, maxPixels: limit)).canvas?.background == blue)
        let red = try Color(parsing: "red")
        #expect(try creation.applying(.extendCanvas(CanvasMargins(right: 10), background: red, maxPixels: limit)).canvas?.background == red)
        #expect(try creation.decide(.extendCanvas(CanvasMargins(), background: nil, maxPixels: limit)).isEmpty, "no room, same colour: nothing to store")
    }

    @Test func aCanvasGrowsUpToThePixelLimitAndIsRefusedPastItByName() throws {
        let creation = try startedCreation()  // 600x400
        #expect(try creation.applying(.extendCanvas(CanvasMargins(bottom: 1_600), background: nil, maxPixels: 1_200_000)).height == 2_000)
        #expect(throws: DomainError.canvasTooLarge(width: 600, height: 2_001, maxPixels: 1_200_000, maxSide: 20_000)) {
            try creation.decide(.extendCanvas(CanvasMargins(bottom: 1_601), background: nil, maxPixels: 1_200_000))
        }
        #expect(DomainError.canvasTooLarge(width: 600, height: 2_001, maxPixels: 1_200_000, maxSide: 20_000).description
                == "the canvas would be 600x2001 (1.2 megapixels), over the limit of 1 megapixels and 20000 pixels a side: add less room")
        #expect(throws: DomainError.self) { try creation.decide(.extendCanvas(CanvasMargins(left: -5), background: nil, maxPixels: limit)) }
        #expect(throws: DomainError.self) { try creation.decide(.extendCanvas(CanvasMargins(top: Int.max), background: nil, maxPixels: limit)) }
        #expect(throws: DomainError.self) { try creation.decide(.extendCanvas(CanvasMargins(right: 19_600), background: nil, maxPixels: .max)) }
    }

    @Test func fitGrowsToALayerPastTheEdgeAndTrimsBackToThePicture() throws {
        var creation = try startedCreation().applying(.setCaptions(top: "top", bottom: nil))
        // A rectangle hanging 100 px past the right edge and 50 px above the top.
        creation = try creation.applying(.addShape(.rect, box: Box(x: 500, y: -50, w: 200, h: 100), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        let events = try creation.decide(.fitCanvasToContent(margin: 0, background: nil, maxPixels: limit))
        #expect(events == [.canvasExtended(.init(left: 0, top: 50, right: 100, bottom: 0, background: .white))])
        let grown = try creation.applying(.fitCanvasToContent(margin: 0, background: nil, maxPixels: limit))
        #expect(grown.width == 700 && grown.height == 450)
        #expect(try #require(grown.layer("L2")).box == Box(x: 500, y: 0, w: 200, h: 100))
        #expect(try grown.decide(.fitCanvasToContent(margin: 0, background: nil, maxPixels: limit)).isEmpty, "already fitted")
        // Without the rectangle, fit trims back to the picture: a crop.
        let trimmed = try grown.applying(.removeLayer(id: "L2")).applying(.fitCanvasToContent(margin: 0, background: nil, maxPixels: limit))
        #expect(trimmed.width == 600 && trimmed.height == 400 && trimmed.basePlacement == Transform(x: 300, y: 200))
        // A margin grows every side; a caption never counts as content.
        let margined = try trimmed.applying(.fitCanvasToContent(margin: 10, background: nil, maxPixels: limit))
        #expect(margined.width == 620 && margined.height == 420)
    }

    @Test func fitFollowsStrokesAndTurnedLayersNotTheirBoxes() throws {
        var creation = try Creation(id: UUID()).applying(.create(name: "blank"))
        creation = try creation.applying(.createCanvas(width: 1000, height: 1000, background: .white))
        creation = try creation.applying(.draw(points: [Point(x: 100, y: 100), Point(x: 300, y: 200)], width: 10, color: .black, erase: false, layer: nil))
        let fitted = try creation.applying(.fitCanvasToContent(margin: 0, background: nil, maxPixels: limit))
        #expect(fitted.width == 210 && fitted.height == 110, "the stroke's reach, not the drawing layer's 1000x1000 box")
        #expect(throws: DomainError.nothingToFit) {
            try Creation(id: UUID()).applying(.create(name: "empty")).applying(.createCanvas(width: 10, height: 10, background: .white))
                .applying(.setCaptions(top: "only words", bottom: nil)).decide(.fitCanvasToContent(margin: 0, background: nil, maxPixels: limit))
        }
    }

    @Test func anExtensionFromAnotherMachineOutOfRangeIsUnreadableNotATrap() throws {
        let sane = Data(##"{"left":0,"top":10,"right":0,"bottom":0,"background":"#ffffff"}"##.utf8)
        #expect(EventAdmission.judge(type: "CanvasExtended", schemaVersion: 1, payload: sane, time: EventAdmission.earliestTime) == .readable)
        for hostile in [##"{"left":9223372036854775807,"top":0,"right":0,"bottom":0,"background":"#ffffff"}"##,
                        ##"{"left":-1,"top":0,"right":0,"bottom":0,"background":"#ffffff"}"##] {
            guard case .unreadable = EventAdmission.judge(type: "CanvasExtended", schemaVersion: 1, payload: Data(hostile.utf8), time: EventAdmission.earliestTime) else {
                Issue.record("admitted \(hostile)"); continue
            }
        }
    }
}

extension CanvasExtentTests {
    /// A canvas of any size another machine sent, then room or a fit: no trap, and the edit
    /// made on it is refused by name.
    @Test(arguments: [Int.max, Int.min, -1, 0])
    func aHostileCanvasSizeNeverTraps(_ side: Int) throws {
        var creation = try Creation(id: UUID()).applying(.create(name: "odd"))
        creation = creation.evolve(.canvasCreated(.init(width: side, height: side, background: .white)))
        let grown = creation.evolve(.canvasExtended(.init(left: 20_000, top: 20_000, right: 20_000, bottom: 20_000, background: .white)))
        #expect((Int(Int32.min)...Int(Int32.max)).contains(grown.width))
        #expect(throws: DomainError.self) { try creation.decide(.extendCanvas(CanvasMargins(right: 1), background: nil, maxPixels: limit)) }
        creation = creation.evolve(.shapeLayerAdded(.init(layer: Layer(id: "L1", content: .shape(ShapeContent(kind: .rect, width: 10, height: 10)),
                                                                      transform: Transform(x: 5, y: 5)))))
        _ = try? creation.decide(.fitCanvasToContent(margin: 5, background: nil, maxPixels: limit))
    }
}
