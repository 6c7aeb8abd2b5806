extension Creation {
    /// Applies one edit event. Pure and total: events were validated when decided, so evolve
    /// never refuses one (an event about a missing layer changes nothing).
    public func evolve(_ event: CreationEvent) -> Creation {
        if event.isHeadMove { return self }  // not an edit: CreationHistory moves between states
        var next = self
        next.version += 1
        switch event {
        case .created(let e):
            next.id = e.id
            next.name = e.name
        case .baseImageImported(let e):
            next.baseImage = e.image
            next.canvas = Canvas(width: e.image.width, height: e.image.height, background: Canvas.transparent)
            next.basePlacement = Transform(x: Double(e.image.width) / 2, y: Double(e.image.height) / 2)
        case .canvasCreated(let e):
            next.canvas = Canvas(width: e.width, height: e.height, background: e.background)
        case .startedFromTemplate(let e):
            next.canvas = e.canvas
            next.baseImage = e.baseImage
            next.basePlacement = e.basePlacement
        case .textLayerAdded(let e), .imageLayerAdded(let e), .shapeLayerAdded(let e), .drawingLayerAdded(let e):
            next.layers.append(e.layer)
            if let number = LocalLabel.number(of: e.layer.id), number >= next.nextLayerNumber {
                next.nextLayerNumber = number + 1
            }
        case .textLayerEdited(let e):
            next.update(e.id) { layer in
                guard case .text(var content) = layer.content else { return }
                if let text = e.text { content.text = text }
                if let style = e.style { content.style = style }
                if let box = e.box {
                    content.width = box.w / layer.transform.scale
                    content.height = box.h / layer.transform.scale
                    layer.transform.x = box.x + box.w / 2
                    layer.transform.y = box.y + box.h / 2
                }
                layer.content = .text(content)
            }
        case .strokeAdded(let e):
            next.update(e.id) { layer in
                guard case .drawing(var drawing) = layer.content else { return }
                drawing.strokes.append(e.stroke)
                layer.content = .drawing(drawing)
            }
        case .layerChanged(let e):
            next.update(e.id) { layer in
                if let transform = e.transform { layer.transform = transform }
                if let opacity = e.opacity { layer.opacity = opacity }
                if let shape = e.shape, case .shape = layer.content { layer.content = .shape(shape) }
            }
        case .layerRemoved(let e):
            next.layers.removeAll { $0.id == e.id }
            next.filters.removeAll { $0.target == .layer(e.id) }
        case .filterApplied(let e):
            next.filters.append(e.filter)
            if let number = LocalLabel.number(of: e.filter.id), number >= next.nextFilterNumber { next.nextFilterNumber = number + 1 }
        case .filterParamsChanged(let e):
            if let index = next.filters.firstIndex(where: { $0.id == e.id }) {
                next.filters[index].params = e.params
                next.filters[index].paramVersion = e.paramVersion
            }
        case .filterRemoved(let e):
            next.filters.removeAll { $0.id == e.id }
        case .layerReordered(let e):
            if let from = next.layerIndex(e.id) {
                let layer = next.layers.remove(at: from)
                next.layers.insert(layer, at: max(0, min(e.index, next.layers.count)))
            }
        case .canvasCropped(let e):
            guard let canvas = next.canvas else { break }
            next.canvas = Canvas(width: e.width, height: e.height, background: canvas.background)
            next.moveEverything { t in
                var t = t
                t.x -= Double(e.x)
                t.y -= Double(e.y)
                return t
            }
            next.refitCaptions(from: canvas)
        case .canvasExtended(let e):
            guard let canvas = next.canvas else { break }
            next.canvas = Canvas(width: Canvas.sum(canvas.width, e.left, e.right), height: Canvas.sum(canvas.height, e.top, e.bottom),
                                 background: e.background)
            next.moveEverything { t in
                var t = t
                t.x += Double(e.left)
                t.y += Double(e.top)
                return t
            }
            next.refitCaptions(from: canvas)
        case .canvasRotated(let e):
            guard let canvas = next.canvas else { break }
            let from = Point(x: Double(canvas.width) / 2, y: Double(canvas.height) / 2)
            let to = Point(x: Double(e.width) / 2, y: Double(e.height) / 2)
            next.canvas = Canvas(width: e.width, height: e.height, background: canvas.background)
            next.moveEverything { $0.rotated(by: e.degrees, from: from, to: to) }
            next.refitCaptions(from: canvas)
        case .canvasFlipped(let e):
            guard let canvas = next.canvas else { break }
            next.moveEverything { $0.flipped(e.axis, width: Double(canvas.width), height: Double(canvas.height)) }
            next.refitCaptions(from: canvas)
        case .baseImageMoved(let e):
            next.basePlacement = e.transform
        case .headMoved:
            break
        }
        return next
    }

    private mutating func update(_ id: String, _ change: (inout Layer) -> Void) {
        guard let index = layerIndex(id) else { return }
        change(&layers[index])
    }

    /// Top and bottom captions belong to the canvas: after a crop, rotation or flip they take
    /// their role's box on the new canvas, upright and unmirrored, whatever moved them before.
    /// A size left at the old canvas's default becomes the new canvas's default.
    private mutating func refitCaptions(from old: Canvas) {
        let oldDefault = TextStyle.meme(canvasHeight: old.height).maxSize
        let newDefault = TextStyle.meme(canvasHeight: height).maxSize
        for index in layers.indices {
            guard case .text(var content) = layers[index].content, content.role != .free else { continue }
            let box = TextContent.captionBox(content.role, width: width, height: height)
            content.width = box.w
            content.height = box.h
            if content.style.maxSize == oldDefault { content.style.maxSize = newDefault }
            layers[index].content = .text(content)
            layers[index].transform = Transform(x: box.x + box.w / 2, y: box.y + box.h / 2)
        }
    }

    /// Canvas edits carry the base image and every layer along with the picture.
    private mutating func moveEverything(_ move: (Transform) -> Transform) {
        basePlacement = move(basePlacement)
        for index in layers.indices { layers[index].transform = move(layers[index].transform) }
    }
}
