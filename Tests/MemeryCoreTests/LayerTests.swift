import Foundation
import MemeryCore
import Testing

@Suite struct LayerTests {
    @Test func canvasAndLocalPointsAreInverse() {
        let t = Transform(x: 100, y: 50, scale: 2, rotation: 30, flipH: true, flipV: false)
        let size = (w: 40.0, h: 20.0)
        for local in [Point(x: 0, y: 0), Point(x: 40, y: 20), Point(x: 13, y: 7)] {
            let back = t.localPoint(t.canvasPoint(local, size: size), size: size)
            #expect(abs(back.x - local.x) < 1e-9 && abs(back.y - local.y) < 1e-9)
        }
        // The content's centre is the transform's position.
        #expect(t.canvasPoint(Point(x: 20, y: 10), size: size) == Point(x: 100, y: 50))
    }

    /// A text's fields are shared between copies until one changes (`TextContent`), and a
    /// fold changes them in place: every other holder of the state or the text keeps its own.
    @Test func foldingATextEditLeavesEveryOtherCopyAsItWas() {
        var state = Creation(id: UUID())
        state.fold(.canvasCreated(.init(width: 400, height: 300, background: .white)))
        let style = TextStyle.meme(canvasHeight: 300)
        let caption = Layer(id: "L1.00000000000000aa", content: .text(TextContent(role: .top, text: "before", width: 376, height: 75, style: style)),
                            transform: Transform(x: 200, y: 43.5, scale: 2))
        state.fold(.textLayerAdded(.init(layer: caption)))
        let earlier = state
        let heldText = state.layers[0].text
        var bigger = style
        bigger.maxSize = 99
        state.fold(.textLayerEdited(.init(id: "L1", text: "after", box: Box(x: 10, y: 20, w: 100, h: 40), style: bigger)))

        #expect(state.layers[0].text?.text == "after")
        #expect(state.layers[0].text?.width == 50 && state.layers[0].text?.height == 20)  // the box over the layer's scale
        #expect(state.layers[0].text?.style.maxSize == 99)
        #expect(state.layers[0].transform.x == 60 && state.layers[0].transform.y == 40)
        #expect(earlier.layers[0] == caption)
        #expect(heldText == caption.text)
        #expect(heldText?.text == "before" && heldText?.style.maxSize == style.maxSize)

        // A crop refits the captions in place too, and the state before it keeps its own.
        let edited = state
        state.fold(.canvasCropped(.init(x: 0, y: 0, width: 200, height: 300)))
        #expect(state.layers[0].text?.width == TextContent.captionBox(.top, width: 200, height: 300).w)
        #expect(edited.layers[0].text?.width == 50)
        #expect(earlier.layers[0] == caption)
    }

    /// `TextContent` spells, reads, compares and hashes as the struct Swift synthesized these
    /// for did before its fields were boxed.
    @Test func textContentCodesComparesAndHashesByItsFields() throws {
        let text = TextContent(role: .bottom, text: "hi", width: 10, height: 5, style: TextStyle(maxSize: 30))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(text), as: UTF8.self)
        #expect(json.hasPrefix(#"{"height":5,"role":"bottom","style":{"#) && json.hasSuffix(#"},"text":"hi","width":10}"#))
        #expect(try JSONDecoder().decode(TextContent.self, from: Data(json.utf8)) == text)

        let twin = TextContent(role: .bottom, text: "hi", width: 10, height: 5, style: TextStyle(maxSize: 30))
        #expect(twin == text && twin.hashValue == text.hashValue)
        var other = twin
        other.text = "ho"
        #expect(other != text && twin == text)

        let withoutStyle = #"{"height":5,"role":"bottom","text":"hi","width":10}"#
        #expect {
            try JSONDecoder().decode(TextContent.self, from: Data(withoutStyle.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "style"
        }
    }

    @Test func imagesShapesAndDrawingsAreAddedWithTheirPlacement() throws {
        var c = try startedCreation()  // 600x400
        let sticker = BaseImage(blob: "ff", width: 100, height: 50, format: "png", sourceName: "s.png")
        c = try c.applying(.addImage(sticker, at: Point(x: 10, y: 20), scale: 2, rotation: 370, opacity: 0.5, flip: .h))
        let image = try #require(c.layer("L1"))
        #expect(image.kind == "image")
        #expect(image.transform == Transform(x: 110, y: 70, scale: 2, rotation: 10, flipH: true))
        #expect(image.opacity == 0.5)
        #expect(image.box == Box(x: 10, y: 20, w: 200, h: 100))

        c = try c.applying(.addShape(.ellipse, box: Box(x: 0, y: 0, w: 60, h: 40), fill: nil, alpha: 1, stroke: .black, strokeWidth: 3))
        guard case .shape(let shape)? = c.layer("L2")?.content else { Issue.record("no shape"); return }
        #expect(shape.kind == .ellipse && shape.fill == nil && shape.stroke == .black && shape.strokeWidth == 3)

        c = try c.applying(.draw(points: [Point(x: 1, y: 2), Point(x: 3, y: 4)], width: 5, color: .black, erase: false, layer: nil))
        c = try c.applying(.draw(points: [Point(x: 2, y: 3)], width: 9, color: .white, erase: true, layer: nil))
        guard case .drawing(let drawing)? = c.layer("L3")?.content else { Issue.record("no drawing"); return }
        #expect(drawing.strokes.count == 2)
        #expect(drawing.strokes[1].erase)
        #expect(drawing.width == 600 && drawing.height == 400)
    }

    @Test func badLayerValuesAreRefusedWithTheirRange() throws {
        let c = try startedCreation()
        let sticker = BaseImage(blob: "ff", width: 10, height: 10, format: "png")
        #expect(throws: DomainError.outOfRange(field: "opacity", value: 1.7, range: 0...1)) {
            try c.decide(.addImage(sticker, at: nil, scale: 1, rotation: 0, opacity: 1.7, flip: nil))
        }
        #expect(DomainError.outOfRange(field: "opacity", value: 1.7, range: 0...1).description == "opacity must be between 0 and 1, got 1.7")
        #expect(throws: DomainError.outOfRange(field: "scale", value: 0, range: Transform.scaleRange)) {
            try c.decide(.addImage(sticker, at: nil, scale: 0, rotation: 0, opacity: 1, flip: nil))
        }
        #expect(throws: DomainError.outOfRange(field: "alpha", value: -0.1, range: 0...1)) {
            try c.decide(.addShape(.rect, box: Box(x: 0, y: 0, w: 5, h: 5), fill: .white, alpha: -0.1, stroke: nil, strokeWidth: 0))
        }
        #expect(throws: DomainError.noDrawingLayer) {
            try c.decide(.draw(points: [Point(x: 1, y: 1)], width: 3, color: .black, erase: true, layer: nil))
        }
        #expect(throws: DomainError.tooManyPoints(0, max: Stroke.maxPoints)) {
            try c.decide(.draw(points: [], width: 3, color: .black, erase: false, layer: nil))
        }
        let withText = try c.applying(.setCaptions(top: "t", bottom: nil))
        #expect(throws: DomainError.wrongLayerKind(id: "L1", kind: "text", wanted: "drawing")) {
            try withText.decide(.draw(points: [Point(x: 1, y: 1)], width: 3, color: .black, erase: false, layer: "L1"))
        }
    }

    @Test func layerSetParsesKeysAndRefusesWhatAKindDoesNotHave() throws {
        var c = try startedCreation().applying(.setCaptions(top: "t", bottom: nil))
        c = try c.applying(.addShape(.rect, box: Box(x: 0, y: 0, w: 10, h: 10), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        c = try c.applying(.changeLayer(id: "L2", try LayerChanges(parsing: ["x=50", "rotation=-90", "flip=v", "fill=none", "stroke=#ff0000", "w=30", "opacity=0.25"])))
        let shape = try #require(c.layer("L2"))
        #expect(shape.transform == Transform(x: 50, y: 5, rotation: -90, flipV: true))
        #expect(shape.opacity == 0.25)
        guard case .shape(let content) = shape.content else { Issue.record("not a shape"); return }
        #expect(content.fill == nil && content.stroke == Color(red: 255, green: 0, blue: 0) && content.width == 30)

        c = try c.applying(.changeLayer(id: "L1", try LayerChanges(parsing: ["text=new words", "size=20", "caps=false", "scale=1.5"])))
        #expect(c.layer("L1")?.text?.text == "new words")
        #expect(c.layer("L1")?.text?.style.uppercase == false)
        #expect(c.layer("L1")?.transform.scale == 1.5)

        #expect(throws: DomainError.wrongLayerKind(id: "L2", kind: "shape", wanted: "text")) {
            try c.decide(.changeLayer(id: "L2", try LayerChanges(parsing: ["text=x"])))
        }
        #expect(throws: DomainError.wrongLayerKind(id: "L1", kind: "text", wanted: "shape")) {
            try c.decide(.changeLayer(id: "L1", try LayerChanges(parsing: ["fill=#fff"])))
        }
        #expect(throws: DomainError.outOfRange(field: "opacity", value: 2, range: 0...1)) {
            try c.decide(.changeLayer(id: "L1", try LayerChanges(parsing: ["opacity=2"])))
        }
        #expect(throws: DomainError.self) { try LayerChanges(parsing: ["nonsense=1"]) }
        #expect(throws: DomainError.self) { try LayerChanges(parsing: ["x=abc"]) }
        #expect(throws: DomainError.self) { try LayerChanges(parsing: ["flip=sideways"]) }
        #expect(throws: DomainError.self) { try LayerChanges(parsing: ["novalue"]) }
        #expect(try c.decide(.changeLayer(id: "L1", try LayerChanges(parsing: ["scale=1.5"]))).isEmpty, "no change, no event")
    }

    @Test func layersMoveInTheStack() throws {
        var c = try startedCreation()
        for n in 1...4 {
            c = try c.applying(.addShape(.rect, box: Box(x: 0, y: 0, w: Double(n), h: 5), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        }
        func order() -> [String] { c.layers.map(\.label) }
        c = try c.applying(.moveLayer(id: "L1", .front))
        #expect(order() == ["L2", "L3", "L4", "L1"])
        c = try c.applying(.moveLayer(id: "L1", .down))
        #expect(order() == ["L2", "L3", "L1", "L4"])
        c = try c.applying(.moveLayer(id: "L4", .back))
        #expect(order() == ["L4", "L2", "L3", "L1"])
        c = try c.applying(.moveLayer(id: "L4", .up))
        #expect(order() == ["L2", "L4", "L3", "L1"])
        c = try c.applying(.moveLayer(id: "L1", .to(2)))
        #expect(order() == ["L2", "L1", "L4", "L3"])
        #expect(try c.decide(.moveLayer(id: "L2", .back)).isEmpty)
        #expect(throws: DomainError.outOfRange(field: "position", value: 5, range: 1...4)) { try c.decide(.moveLayer(id: "L1", .to(5))) }
        c = try c.applying(.removeLayer(id: "L4"))
        #expect(order() == ["L2", "L1", "L3"])
    }

    @Test func hitTestingFindsTheTopmostLayerUnderAPoint() throws {
        var c = try startedCreation()
        c = try c.applying(.addShape(.rect, box: Box(x: 0, y: 0, w: 100, h: 100), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        c = try c.applying(.addShape(.ellipse, box: Box(x: 50, y: 50, w: 100, h: 100), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        c = try c.applying(.draw(points: [Point(x: 300, y: 300), Point(x: 400, y: 300)], width: 10, color: .black, erase: false, layer: nil))
        #expect(c.topmostLayer(at: Point(x: 10, y: 10))?.label == "L1")
        #expect(c.topmostLayer(at: Point(x: 100, y: 100))?.label == "L2")
        #expect(c.topmostLayer(at: Point(x: 55, y: 55))?.label == "L1", "outside the ellipse, inside its box: the rect below")
        #expect(c.topmostLayer(at: Point(x: 350, y: 303))?.label == "L3")
        #expect(c.topmostLayer(at: Point(x: 350, y: 320)) == nil, "far from the stroke")
        #expect(c.topmostLayer(at: Point(x: 500, y: 10)) == nil)
        // A rotated layer is hit where it is drawn, not where its box was.
        c = try c.applying(.changeLayer(id: "L1", try LayerChanges(parsing: ["rotation=45"])))
        #expect(c.topmostLayer(at: Point(x: 50, y: -15))?.label == "L1")
        #expect(c.topmostLayer(at: Point(x: 3, y: 3)) == nil)
        // An invisible layer is not hit.
        c = try c.applying(.changeLayer(id: "L2", try LayerChanges(parsing: ["opacity=0"])))
        #expect(c.topmostLayer(at: Point(x: 100, y: 100)) == nil)
        #expect(c.topmostLayer(at: Point(x: 60, y: 60))?.label == "L1")
    }
}

@Suite struct CanvasEditTests {
    @Test func cropMovesLayersWithThePicture() throws {
        var c = try startedCreation().applying(.addText(role: .free, text: "t", box: Box(x: 150, y: 60, w: 200, h: 40), style: TextStyleChanges()))
        let before = try #require(c.layer("L1")).transform
        c = try c.applying(.crop(Box(x: 100, y: 50, w: 300, h: 200)))
        #expect(c.width == 300 && c.height == 200)
        #expect(c.layer("L1")?.transform.x == before.x - 100)
        #expect(c.layer("L1")?.transform.y == before.y - 50)
        #expect(c.basePlacement == Transform(x: 200, y: 150))
        #expect(throws: DomainError.cropOutsideCanvas(Box(x: 250, y: 0, w: 100, h: 10), width: 300, height: 200)) {
            try c.decide(.crop(Box(x: 250, y: 0, w: 100, h: 10)))
        }
        #expect(throws: DomainError.self) { try c.decide(.crop(Box(x: -1, y: 0, w: 10, h: 10))) }
    }

    @Test func quarterTurnsSwapTheCanvasExactly() throws {
        var c = try startedCreation()  // 600x400
        c = try c.applying(.addShape(.rect, box: Box(x: 0, y: 0, w: 10, h: 20), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        c = try c.applying(.rotate(degrees: 90))
        #expect(c.width == 400 && c.height == 600)
        // The rect's centre (5, 10) turns clockwise into the top-right corner area.
        #expect(c.layer("L1")?.transform == Transform(x: 390, y: 5, rotation: 90))
        #expect(c.basePlacement == Transform(x: 200, y: 300, rotation: 90))
        c = try c.applying(.rotate(degrees: -90))
        #expect(c.width == 600 && c.height == 400)
        #expect(c.layer("L1")?.transform == Transform(x: 5, y: 10))
        #expect(try c.decide(.rotate(degrees: 360)).isEmpty)
    }

    @Test func anyAngleGrowsTheCanvasToHoldThePicture() throws {
        let c = try startedCreation().applying(.rotate(degrees: 30))
        // |600 cos 30| + |400 sin 30| = 719.6..., |600 sin 30| + |400 cos 30| = 646.4...
        #expect(c.width == 720 && c.height == 647)
        #expect(c.basePlacement.rotation == 30)
        #expect(abs(c.basePlacement.x - 360) < 1e-9 && abs(c.basePlacement.y - 323.5) < 1e-9)
    }

    @Test func flipMirrorsPositionsAndTurnsRotationsAround() throws {
        var c = try startedCreation()
        c = try c.applying(.addShape(.rect, box: Box(x: 0, y: 0, w: 10, h: 20), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        c = try c.applying(.changeLayer(id: "L1", try LayerChanges(parsing: ["rotation=20"])))
        c = try c.applying(.flip(.h))
        #expect(c.layer("L1")?.transform == Transform(x: 595, y: 10, rotation: -20, flipH: true))
        c = try c.applying(.flip(.h))
        #expect(c.layer("L1")?.transform == Transform(x: 5, y: 10, rotation: 20))
        c = try c.applying(.flip(.v))
        #expect(c.layer("L1")?.transform == Transform(x: 5, y: 390, rotation: -20, flipV: true))
    }

    /// A text box goes to its mirrored place and turns the other way, but its words stay
    /// readable, as a caption's do; one flipped on its own stays mirrored. The flip and the
    /// text box's change are one edit.
    @Test func flippingTheCanvasKeepsTextBoxesReadable() throws {
        var c = try startedCreation()  // 600x400
        c = try c.applying(.addText(role: .free, text: "readable", box: Box(x: 100, y: 100, w: 200, h: 50), style: TextStyleChanges()))
        c = try c.applying(.addText(role: .free, text: "mirrored", box: Box(x: 0, y: 300, w: 100, h: 50), style: TextStyleChanges()))
        c = try c.applying(.changeLayer(id: "L1", try LayerChanges(parsing: ["rotation=20"])))
        c = try c.applying(.flip(.h, .layer("L2")))
        let events = try c.decide(.flip(.h))
        #expect(events.count == 3, "the flip, then each text box set readable: \(events)")
        c = events.reduce(c) { $0.evolve($1) }
        #expect(c.layer("L1")?.transform == Transform(x: 400, y: 125, rotation: -20))
        #expect(c.layer("L2")?.transform == Transform(x: 550, y: 325, flipH: true))
        c = try c.applying(.flip(.v))
        #expect(c.layer("L1")?.transform == Transform(x: 400, y: 275, rotation: 20))
    }

    @Test func captionsRefitTheCanvasAfterCropRotateAndFlip() throws {
        var c = try startedCreation()  // 600x400
        c = try c.applying(.setCaptions(top: "captions after crop", bottom: "stay"))
        c = try c.applying(.addText(role: .free, text: "free", box: Box(x: 100, y: 100, w: 200, h: 50), style: TextStyleChanges()))
        func expectFitted(_ role: TextContent.Role, _ line: Int = #line) throws {
            let layer = try #require(c.caption(role))
            let box = TextContent.captionBox(role, width: c.width, height: c.height)
            #expect(layer.box == box, "line \(line): \(role) caption \(layer.box) on \(c.width)x\(c.height)")
            #expect(layer.transform.rotation == 0 && !layer.transform.flipH && !layer.transform.flipV && layer.transform.scale == 1)
        }
        c = try c.applying(.crop(Box(x: 50, y: 0, w: 200, h: 400)))
        try expectFitted(.top); try expectFitted(.bottom)
        #expect(c.caption(.top)?.box.w == 188)  // 200 less a 3 % margin each side, not the 564 px it had
        #expect(c.layer("L3")?.box == Box(x: 50, y: 100, w: 200, h: 50))  // a free text box stays on the picture
        c = try c.applying(.rotate(degrees: 90))
        try expectFitted(.top); try expectFitted(.bottom)
        #expect(c.layer("L3")?.transform.rotation == 90)
        c = try c.applying(.flip(.h))
        try expectFitted(.top); try expectFitted(.bottom)
        c = try c.applying(.rotate(degrees: 33))
        try expectFitted(.top); try expectFitted(.bottom)
        // A caption set now takes the canvas as it is.
        c = try c.applying(.setCaptions(top: "new words", bottom: nil))
        try expectFitted(.top)
    }

    @Test func thePictureOrOneLayerTurnsAloneInPlace() throws {
        var c = try startedCreation()  // 600x400
        c = try c.applying(.setCaptions(top: "top", bottom: nil))
        c = try c.applying(.addShape(.rect, box: Box(x: 0, y: 0, w: 10, h: 20), fill: .white, alpha: 1, stroke: nil, strokeWidth: 0))
        let before = c
        c = try c.applying(.rotate(degrees: 90, .picture))
        #expect(c.width == 600 && c.height == 400)
        #expect(c.basePlacement == Transform(x: 300, y: 200, rotation: 90))
        #expect(c.layers == before.layers)
        c = try c.applying(.flip(.h, .picture))
        #expect(c.basePlacement == Transform(x: 300, y: 200, rotation: -90, flipH: true))

        c = try c.applying(.rotate(degrees: 45, .layer("L2")))
        #expect(c.layer("L2")?.transform == Transform(x: 5, y: 10, rotation: 45))
        c = try c.applying(.flip(.v, .layer("L2")))
        #expect(c.layer("L2")?.transform == Transform(x: 5, y: 10, rotation: -45, flipV: true))
        #expect(c.caption(.top) == before.caption(.top))
        #expect(throws: DomainError.noSuchLayer("L9")) { try c.decide(.flip(.h, .layer("L9"))) }

        var blank = Creation(id: UUID())
        blank = try blank.applying(.create(name: "blank"))
        blank = try blank.applying(.createCanvas(width: 10, height: 10, background: .white))
        #expect(throws: DomainError.noBaseImage) { try blank.decide(.rotate(degrees: 90, .picture)) }
    }

    /// After a crop the picture turns and mirrors about the centre of what the canvas shows:
    /// the point of the picture there stays there (it turned about its uncropped centre,
    /// leaving an empty band on one side and cutting the other off).
    @Test func afterACropThePictureTurnsAboutWhatTheCanvasShows() throws {
        var c = try startedCreation()  // 600x400
        c = try c.applying(.crop(Box(x: 0, y: 0, w: 600, h: 200)))  // the top half
        let size = (w: 600.0, h: 400.0), shown = Point(x: 300, y: 100)
        let underTheCentre = c.basePlacement.localPoint(shown, size: size)
        c = try c.applying(.rotate(degrees: 90, .picture))
        #expect(c.basePlacement == Transform(x: 200, y: 100, rotation: 90), "\(c.basePlacement)")
        let kept = c.basePlacement.localPoint(shown, size: size)
        #expect(abs(kept.x - underTheCentre.x) < 1e-9 && abs(kept.y - underTheCentre.y) < 1e-9)
        c = try c.applying(.flip(.v, .picture))
        #expect(c.basePlacement.x == 200 && c.basePlacement.y == 100 && c.basePlacement.flipV)

        // With room added round it, the whole picture shows: it turns about its own centre.
        var roomy = try startedCreation()
        roomy = try roomy.applying(.extendCanvas(CanvasMargins(top: 300), background: nil, maxPixels: Canvas.defaultMaxPixels))
        let centre = roomy.basePlacement
        roomy = try roomy.applying(.rotate(degrees: 90, .picture))
        #expect(roomy.basePlacement.x == centre.x && roomy.basePlacement.y == centre.y)
    }

    @Test func blankCanvasNeedsASizeInRange() throws {
        var c = Creation(id: UUID())
        c = try c.applying(.create(name: "blank"))
        #expect(throws: DomainError.outOfRange(field: "canvas width", value: 0, range: Canvas.sizeRange)) {
            try c.decide(.createCanvas(width: 0, height: 10, background: .white))
        }
        c = try c.applying(.createCanvas(width: 320, height: 240, background: .black))
        #expect(c.canvas == Canvas(width: 320, height: 240, background: .black))
        #expect(c.baseImage == nil)
        #expect(try c.applying(.setCaptions(top: "works", bottom: nil)).caption(.top) != nil)
    }
}

@Suite struct UpcastingTests {
    /// Events written by the 0.1 build (TextLayerAdded v1, TextLayerRemoved v1), frozen in
    /// Fixtures/events-v1.json, still replay to the same creation.
    @Test func frozenVersionOneEventsReplayToTheSameCreation() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/events-v1.json")
        let envelopes = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        var history = CreationHistory(id: UUID())
        var batch: [CreationEvent] = [], batchID = -1, last = (version: UInt64(0), time: Int64(0))
        for envelope in envelopes {
            let payload = try JSONSerialization.data(withJSONObject: envelope["payload"] as Any)
            let id = envelope["batch"] as! Int
            if id != batchID, !batch.isEmpty { history.apply(batch, lastVersion: last.version, time: last.time); batch = [] }
            let event: CreationEvent
            if envelope["type"] as? String == "HeadMoved" {
                // v1 named its target by version: the format-1 migration turns that into the edit's id.
                let move = try CreationEvent.HeadMoved.FormatOne.decode(payload)
                let target = try #require(history.node(version: move.to))
                event = .headMoved(.init(to: history.nodes[target].id, cause: move.cause))
            } else {
                event = try CreationEvent.decode(type: envelope["type"] as! String, schemaVersion: envelope["schema"] as! Int, payload: payload)
            }
            batchID = id
            batch.append(event)
            last = (UInt64(envelope["version"] as! Int), Int64(envelope["time"] as! Int))
        }
        history.apply(batch, lastVersion: last.version, time: last.time)

        let state = history.state
        #expect(state.name == "frozen")
        #expect(state.width == 451 && state.height == 300)
        #expect(state.layers.map(\.label) == ["L1", "L2", "L3"])
        #expect(state.layers.compactMap { $0.text?.text } == ["edited v1", "bottom v1", "free v1"])
        // A v1 box becomes the same box: size and centre.
        #expect(state.layer("L1")?.box == Box(x: 14, y: 6, w: 423, h: 75))
        #expect(state.layer("L3")?.box == Box(x: 10, y: 120, w: 200, h: 60))
        let free = try #require(state.layer("L3")?.text)
        #expect(free.role == .free && free.style.fill == Color(red: 255, green: 0, blue: 0) && free.style.outlineWidth == 3)
        #expect(free.style.align == .left && !free.style.uppercase)
        // Upcast events are written back in the current version's shape.
        let v1 = try #require(envelopes.first { $0["type"] as? String == "TextLayerAdded" })
        #expect(v1["schema"] as? Int == 1)
        let upcast = try CreationEvent.decode(type: "TextLayerAdded", schemaVersion: 1,
                                              payload: try JSONSerialization.data(withJSONObject: v1["payload"] as Any))
        #expect(upcast.schemaVersion == 2)
    }
}
