import Foundation

extension Creation: Decider {
    public static func initialState(of stream: UUID) -> Creation { Creation(id: stream) }

    /// Validates `command` against this state and returns the events it causes. Throws a
    /// `DomainError` naming the bad value; nothing is stored then. (A name's uniqueness is
    /// the gallery's: its claim is taken with the creation's first events.)
    public func decide(_ command: CreationCommand) throws -> [CreationEvent] {
        switch resolvingLabels(command) {
        case .create(let name):
            guard !exists else { throw DomainError.creationExists }
            if let reason = Gallery.problem(withName: name) { throw DomainError.invalidName(name, reason: reason) }
            return [.created(.init(id: id, name: name))]

        case .importBaseImage(let image):
            guard exists else { throw DomainError.creationNotStarted }
            guard canvas == nil else { throw DomainError.baseImageAlreadySet }
            return [.baseImageImported(.init(image: image))]

        case let .createCanvas(width, height, background, maxPixels):
            guard exists else { throw DomainError.creationNotStarted }
            guard canvas == nil else { throw DomainError.baseImageAlreadySet }
            try check("canvas width", Double(width), Canvas.sizeRange)
            try check("canvas height", Double(height), Canvas.sizeRange)
            guard width * height <= maxPixels else { throw DomainError.newCanvasTooLarge(width: width, height: height, maxPixels: maxPixels) }
            return [.canvasCreated(.init(width: width, height: height, background: background))]

        case .startFromTemplate(let template):
            guard exists else { throw DomainError.creationNotStarted }
            guard canvas == nil else { throw DomainError.baseImageAlreadySet }
            var events: [CreationEvent] = [.startedFromTemplate(.init(
                template: template.name, canvas: template.canvas, baseImage: template.baseImage, basePlacement: template.basePlacement))]
            for (offset, layer) in template.layers.enumerated() where layer.text != nil {
                var copy = layer
                copy.id = LocalLabel.mint("L\(nextLayerNumber + offset)")
                events.append(.textLayerAdded(.init(layer: copy)))
            }
            return events

        case let .addText(role, text, box, changes):
            try requireCanvas()
            if role != .free, let existing = caption(role) {
                return try decide(.editText(id: existing.id, text: text, box: box, style: changes))
            }
            guard !Self.blank(text) else { throw DomainError.emptyText }
            try Self.checkLength(text)
            let layerBox = box ?? TextContent.captionBox(role, width: width, height: height)
            try check(layerBox)
            let style = changes.applied(to: .meme(canvasHeight: height)).keepingChosenSize(given: changes.maxSize)
            try style.validate()
            let content = TextContent(role: role, text: text, width: layerBox.w, height: layerBox.h, style: style)
            let layer = Layer(id: newLayerID, content: .text(content),
                              transform: Transform(x: layerBox.x + layerBox.w / 2, y: layerBox.y + layerBox.h / 2))
            return [.textLayerAdded(.init(layer: layer))]

        case let .editText(id, text, box, changes):
            let layer = try existingLayer(id)
            guard let content = layer.text else { throw DomainError.wrongLayerKind(id: layer.label, kind: layer.kind, wanted: "text") }
            if let text, Self.blank(text) { throw DomainError.emptyText }
            if let text { try Self.checkLength(text) }
            if let box { try check(box) }
            let style = changes.applied(to: content.style).keepingChosenSize(given: changes.maxSize)
            try style.validate()
            let edit = CreationEvent.TextLayerEdited(
                id: id,
                text: text == content.text ? nil : text,
                box: box == layer.box ? nil : box,
                style: style == content.style ? nil : style)
            guard edit.text != nil || edit.box != nil || edit.style != nil else { return [] }
            return [.textLayerEdited(edit)]

        case let .setCaptions(top, bottom, style):
            try requireCanvas()
            guard top != nil || bottom != nil else { throw DomainError.nothingToChange }
            var state = self
            var events = [CreationEvent]()
            for (role, text) in [(TextContent.Role.top, top), (.bottom, bottom)] {
                guard let text else { continue }
                let caused: [CreationEvent]
                if Self.blank(text) {  // as empty: a caption of spaces shows nothing
                    caused = state.caption(role).map { [.layerRemoved(.init(id: $0.id))] } ?? []
                } else {
                    caused = try state.decide(.addText(role: role, text: text, box: nil, style: style))
                }
                state.fold(caused)
                events += caused
            }
            return events

        case let .addImage(image, at, scale, rotation, opacity, flip):
            try requireCanvas()
            try check("scale", scale, Transform.scaleRange)
            try check("opacity", opacity, Layer.opacityRange)
            try check("rotation", rotation, -36_000...36_000)
            let w = Double(image.width) * scale, h = Double(image.height) * scale
            let limit = Double(max(width, height)) * 4
            if w > limit || h > limit {
                let fits = (min(Double(width) / Double(image.width), Double(height) / Double(image.height)) * 100).rounded(.down) / 100
                throw DomainError.pictureTooBig(name: image.sourceName ?? "the picture", width: image.width, height: image.height, scale: scale,
                                                canvasWidth: width, canvasHeight: height, fits: max(fits, Transform.scaleRange.lowerBound))
            }
            let corner = at ?? Point(x: (Double(width) - w) / 2, y: (Double(height) - h) / 2)
            let box = Box(x: corner.x, y: corner.y, w: w, h: h)
            try check(box)
            let transform = Transform(x: corner.x + w / 2, y: corner.y + h / 2, scale: scale,
                                      rotation: Angle.normalized(rotation), flipH: flip == .h, flipV: flip == .v)
            return [.imageLayerAdded(.init(layer: Layer(id: newLayerID, content: .image(ImageContent(image: image)),
                                                        transform: transform, opacity: opacity)))]

        case let .addShape(kind, box, fill, alpha, stroke, strokeWidth):
            try requireCanvas()
            try check(box)
            try check("alpha", alpha, Layer.opacityRange)
            try check("stroke width", strokeWidth, ShapeContent.strokeWidthRange)
            let shape = ShapeContent(kind: kind, width: box.w, height: box.h, fill: fill, alpha: alpha,
                                     stroke: stroke, strokeWidth: stroke == nil ? 0 : max(strokeWidth, 0))
            return [.shapeLayerAdded(.init(layer: Layer(id: newLayerID, content: .shape(shape),
                                                        transform: Transform(x: box.x + box.w / 2, y: box.y + box.h / 2))))]

        case let .draw(points, strokeWidth, color, erase, layerID):
            try requireCanvas()
            guard (1...Stroke.maxPoints).contains(points.count) else {
                throw DomainError.tooManyPoints(points.count, max: Stroke.maxPoints)
            }
            try check("stroke width", strokeWidth, Stroke.widthRange)
            for point in points {
                try check("a stroke's x", point.x, Transform.coordinateRange)
                try check("a stroke's y", point.y, Transform.coordinateRange)
            }
            let target: Layer?
            if let layerID {
                target = try existingLayer(layerID)
            } else {
                target = erase ? layers.last { $0.kind == "drawing" } : nil
                if erase && target == nil { throw DomainError.noDrawingLayer }
            }
            guard let target else {
                let size = (Double(width), Double(height))
                let stroke = Stroke(points: points, width: strokeWidth, color: color, erase: false)
                let drawing = DrawingContent(width: size.0, height: size.1, strokes: [stroke])
                return [.drawingLayerAdded(.init(layer: Layer(id: newLayerID, content: .drawing(drawing),
                                                              transform: Transform(x: size.0 / 2, y: size.1 / 2))))]
            }
            guard case .drawing = target.content else {
                throw DomainError.wrongLayerKind(id: target.label, kind: target.kind, wanted: "drawing")
            }
            let local = points.map { target.transform.localPoint($0, size: target.size) }
            return [.strokeAdded(.init(id: target.id, stroke: Stroke(points: local, width: strokeWidth / target.transform.scale,
                                                                     color: color, erase: erase)))]

        case let .changeLayer(id, changes):
            return try decideChanges(id, changes)

        case .removeLayer(let id):
            _ = try existingLayer(id)
            return [.layerRemoved(.init(id: id))]

        case let .moveLayer(id, move):
            guard let from = layerIndex(id) else { throw DomainError.noSuchLayer(id) }
            let top = layers.count - 1
            let to: Int
            switch move {
            case .up: to = min(from + 1, top)
            case .down: to = max(from - 1, 0)
            case .front: to = top
            case .back: to = 0
            case .to(let position):
                try check("position", Double(position), 1...Double(layers.count))
                to = position - 1
            }
            return to == from ? [] : [.layerReordered(.init(id: id, index: to))]

        case .crop(let box):
            try requireCanvas()
            let x = box.x.rounded(), y = box.y.rounded(), w = box.w.rounded(), h = box.h.rounded()
            guard x >= 0, y >= 0, w >= 1, h >= 1, x + w <= Double(width), y + h <= Double(height) else {
                throw DomainError.cropOutsideCanvas(box, width: width, height: height)
            }
            return [.canvasCropped(.init(x: Int(x), y: Int(y), width: Int(w), height: Int(h)))]

        case let .extendCanvas(margins, background, maxPixels):
            try requireCanvas()
            return try extending(by: margins, background: background, maxPixels: maxPixels)

        case let .fitCanvasToContent(margin, background, maxPixels):
            try requireCanvas()
            return try fittingToContent(margin: margin, background: background, maxPixels: maxPixels)

        case let .rotate(degrees, target):
            try requireCanvas()
            try check("rotation", degrees, -36_000...36_000)
            let angle = Angle.normalized(degrees)
            guard angle != 0 else { return [] }
            if target == .picture {
                let pivot = try visiblePictureCentre()
                return try turning(target) { $0.rotated(by: angle, from: pivot, to: pivot) }
            }
            guard target == .canvas else { return try turning(target) { $0.turned(by: angle) } }
            let (c, s) = Angle.cosSin(angle)
            let w = Double(width), h = Double(height)
            // The bounding box of the turned canvas; whole pixels, exact at quarter turns.
            let newW = Int((abs(w * c) + abs(h * s) - 1e-9).rounded(.up))
            let newH = Int((abs(w * s) + abs(h * c) - 1e-9).rounded(.up))
            return [.canvasRotated(.init(degrees: angle, width: newW, height: newH))]

        case let .flip(axis, target):
            try requireCanvas()
            if target == .picture {
                let pivot = try visiblePictureCentre()
                return try turning(target) { $0.mirrored(axis, about: pivot) }
            }
            guard target == .canvas else { return try turning(target) { $0.mirrored(axis) } }
            // Text boxes go to their mirrored places but keep their words readable, as the
            // captions do (a layer flipped on its own is still mirrored on purpose). Stored
            // as changes after the flip, so flips already in a history replay as they were.
            let keptReadable = layers.compactMap { layer -> CreationEvent? in
                guard let text = layer.text, text.role == .free else { return nil }
                var moved = layer.transform.flipped(axis, width: Double(width), height: Double(height))
                moved.flipH = layer.transform.flipH
                moved.flipV = layer.transform.flipV
                return .layerChanged(.init(id: layer.id, transform: moved))
            }
            return [.canvasFlipped(.init(axis: axis))] + keptReadable

        case let .applyFilter(filter, target, paramVersion, params):
            try requireCanvas()
            switch target {
            case .base: guard baseImage != nil else { throw DomainError.noBaseImage }
            case .layer(let id): _ = try existingLayer(id)
            case .canvas: break
            }
            return [.filterApplied(.init(filter: AppliedFilter(id: LocalLabel.mint("F\(nextFilterNumber)"), filter: filter, target: target,
                                                             paramVersion: paramVersion, params: params)))]

        case let .setFilterParams(position, paramVersion, params):
            let applied = try existingFilter(position)
            guard applied.params != params || applied.paramVersion != paramVersion else { return [] }
            return [.filterParamsChanged(.init(id: applied.id, paramVersion: paramVersion, params: params))]

        case .removeFilter(let position):
            return [.filterRemoved(.init(id: try existingFilter(position).id))]
        }
    }

    private func decideChanges(_ id: String, _ changes: LayerChanges) throws -> [CreationEvent] {
        let layer = try existingLayer(id)
        guard !changes.isEmpty else { throw DomainError.nothingToChange }
        var events = [CreationEvent]()
        if changes.touchesText {
            guard layer.text != nil else { throw DomainError.wrongLayerKind(id: layer.label, kind: layer.kind, wanted: "text") }
            events += try decide(.editText(id: id, text: changes.text, box: changes.box, style: changes.style))
        }
        var change = CreationEvent.LayerChanged(id: id)
        if changes.touchesShape {
            guard case .shape(var shape) = layer.content else {
                throw DomainError.wrongLayerKind(id: layer.label, kind: layer.kind, wanted: "shape")
            }
            if let fill = changes.fill { shape.fill = fill == .none ? nil : fill.color }
            if let stroke = changes.stroke { shape.stroke = stroke == .none ? nil : stroke.color }
            if let alpha = changes.alpha { try check("alpha", alpha, Layer.opacityRange); shape.alpha = alpha }
            if let strokeWidth = changes.strokeWidth {
                try check("stroke width", strokeWidth, ShapeContent.strokeWidthRange)
                shape.strokeWidth = strokeWidth
            }
            let limit = Double(max(width, height)) * 4
            if let w = changes.width { try check("width", w, 1...limit); shape.width = w }
            if let h = changes.height { try check("height", h, 1...limit); shape.height = h }
            if case .shape(let old) = layer.content, old != shape { change.shape = shape }
        }
        if changes.touchesTransform {
            var t = layer.transform
            if let x = changes.x { try check("x", x, Transform.coordinateRange); t.x = x }
            if let y = changes.y { try check("y", y, Transform.coordinateRange); t.y = y }
            if let scale = changes.scale { try check("scale", scale, Transform.scaleRange); t.scale = scale }
            if let rotation = changes.rotation { try check("rotation", rotation, -36_000...36_000); t.rotation = Angle.normalized(rotation) }
            if let flipH = changes.flipH { t.flipH = flipH }
            if let flipV = changes.flipV { t.flipV = flipV }
            if t != layer.transform { change.transform = t }
        }
        if let opacity = changes.opacity {
            try check("opacity", opacity, Layer.opacityRange)
            if opacity != layer.opacity { change.opacity = opacity }
        }
        if change.transform != nil || change.opacity != nil || change.shape != nil { events.append(.layerChanged(change)) }
        return events
    }

    /// A rotate or flip of the base picture or one layer alone: it moves in place.
    private func turning(_ target: TurnTarget, _ move: (Transform) -> Transform) throws -> [CreationEvent] {
        switch target {
        case .canvas:
            return []
        case .picture:
            guard baseImage != nil else { throw DomainError.noBaseImage }
            return [.baseImageMoved(.init(transform: move(basePlacement)))]
        case .layer(let id):
            let layer = try existingLayer(id)
            return [.layerChanged(.init(id: layer.id, transform: move(layer.transform)))]
        }
    }

    /// Where the picture alone turns and mirrors "in place": about the centre of the part of
    /// it the canvas shows. After a crop that is the crop's centre, not the uncropped
    /// picture's (which left a band empty and cut the other side off); with room added round
    /// it, the picture's own centre.
    private func visiblePictureCentre() throws -> Point {
        guard let baseImage else { throw DomainError.noBaseImage }
        let w = Double(baseImage.width), h = Double(baseImage.height)
        let corners = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: 0, y: h), Point(x: w, y: h)]
            .map { basePlacement.canvasPoint($0, size: (w, h)) }
        let left = max(corners.map(\.x).min()!, 0), right = min(corners.map(\.x).max()!, Double(width))
        let top = max(corners.map(\.y).min()!, 0), bottom = min(corners.map(\.y).max()!, Double(height))
        guard left < right, top < bottom else { return Point(x: basePlacement.x, y: basePlacement.y) }
        return Point(x: (left + right) / 2, y: (top + bottom) / 2)
    }

    private var newLayerID: String { LocalLabel.mint("L\(nextLayerNumber)") }

    /// The command with each layer named by a label (`L3`) named by its id instead, so that
    /// events always carry ids. A reference to no layer is left for `decide` to refuse.
    private func resolvingLabels(_ command: CreationCommand) -> CreationCommand {
        func id(_ reference: String) -> String { layer(reference)?.id ?? reference }
        switch command {
        case let .editText(ref, text, box, style): return .editText(id: id(ref), text: text, box: box, style: style)
        case let .draw(points, width, color, erase, ref?): return .draw(points: points, width: width, color: color, erase: erase, layer: id(ref))
        case let .changeLayer(ref, changes): return .changeLayer(id: id(ref), changes)
        case let .removeLayer(ref): return .removeLayer(id: id(ref))
        case let .moveLayer(ref, move): return .moveLayer(id: id(ref), move)
        case let .rotate(degrees, .layer(ref)): return .rotate(degrees: degrees, .layer(id(ref)))
        case let .flip(axis, .layer(ref)): return .flip(axis, .layer(id(ref)))
        case let .applyFilter(filter, .layer(ref), paramVersion, params):
            return .applyFilter(filter: filter, target: .layer(id(ref)), paramVersion: paramVersion, params: params)
        default: return command
        }
    }

    /// The filter at a position as `show` lists them, 1 first.
    public func existingFilter(_ position: Int) throws -> AppliedFilter {
        guard filters.indices.contains(position - 1) else {
            if filters.isEmpty { throw DomainError.noFilters }
            throw DomainError.outOfRange(field: "filter position", value: Double(position), range: 1...Double(filters.count))
        }
        return filters[position - 1]
    }

    private func existingLayer(_ id: String) throws -> Layer {
        guard let layer = layer(id) else { throw DomainError.noSuchLayer(id) }
        return layer
    }

    /// Empty, or only white space (spaces, tabs, line breaks): a text that shows nothing.
    static func blank(_ text: String) -> Bool { text.allSatisfy(\.isWhitespace) }

    /// Counted in UTF-8 first: a text of a million bytes is refused without walking its characters.
    private static func checkLength(_ text: String) throws {
        guard text.utf8.count > TextContent.maxCharacters else { return }
        let characters = text.utf8.count > TextContent.maxCharacters * 64 ? text.unicodeScalars.count : text.count
        guard characters <= TextContent.maxCharacters else { throw DomainError.textTooLong(characters: characters, max: TextContent.maxCharacters) }
    }

    private func requireCanvas() throws {
        guard exists else { throw DomainError.creationNotStarted }
        guard canvas != nil else { throw DomainError.noCanvas }
    }

    private func check(_ field: String, _ value: Double, _ range: ClosedRange<Double>) throws {
        guard value.isFinite, range.contains(value) else { throw DomainError.outOfRange(field: field, value: value, range: range) }
    }

    private func check(_ box: Box) throws {
        let limit = Double(max(width, height)) * 4
        try check("box width", box.w, 1...limit)
        try check("box height", box.h, 1...limit)
        guard box.x < Double(width), box.y < Double(height), box.x + box.w > 0, box.y + box.h > 0 else {
            throw DomainError.boxOutsideCanvas(box, width: width, height: height)
        }
    }
}

extension LayerChanges.Paint {
    var color: Color? {
        if case .color(let c) = self { return c }
        return nil
    }
}
