extension Creation {
    /// The state after one edit event. Pure and total: events were validated when decided, so
    /// evolve never refuses one (an event about a missing layer changes nothing).
    public func evolve(_ event: CreationEvent) -> Creation {
        var next = self
        next.fold(event)
        return next
    }

    /// The state after `events`, in order: one copy of this state, then each folded in place.
    /// (The protocol's `evolve` made a state per event, and each copied every layer: folding
    /// 4,700 edits of a creation with 2,000 layers copied 9 million layers.)
    public func evolve<Events: Sequence>(_ events: Events) -> Creation where Events.Element == CreationEvent {
        var next = self
        next.fold(events)
        return next
    }

    /// Folds `events` into this state in place: its layers are copied only when another
    /// state shares them, not once per event.
    public mutating func fold<Events: Sequence>(_ events: Events) where Events.Element == CreationEvent {
        for event in events { fold(event) }
    }

    /// Folds one edit event into this state in place (`evolve` says what it does).
    public mutating func fold(_ event: CreationEvent) {
        if event.isHeadMove { return }  // not an edit: CreationHistory moves between states
        version += 1
        switch event {
        case .created(let e):
            self.id = e.id
            self.name = e.name
        case .baseImageImported(let e):
            self.baseImage = e.image
            self.canvas = Canvas(width: e.image.width, height: e.image.height, background: Canvas.transparent)
            self.basePlacement = Transform(x: Double(e.image.width) / 2, y: Double(e.image.height) / 2)
        case .canvasCreated(let e):
            self.canvas = Canvas(width: e.width, height: e.height, background: e.background)
        case .startedFromTemplate(let e):
            self.canvas = e.canvas
            self.baseImage = e.baseImage
            self.basePlacement = e.basePlacement
        case .textLayerAdded(let e), .imageLayerAdded(let e), .shapeLayerAdded(let e), .drawingLayerAdded(let e):
            self.layers.append(e.layer)
            if let number = LocalLabel.number(of: e.layer.id), number >= self.nextLayerNumber {
                self.nextLayerNumber = number + 1
            }
        case .textLayerEdited(let e):
            self.update(e.id) { layer in
                let scale = layer.transform.scale
                let edited = layer.editText { content in
                    if let text = e.text { content.text = text }
                    if let style = e.style { content.style = style }
                    if let box = e.box {
                        content.width = box.w / scale
                        content.height = box.h / scale
                    }
                }
                if edited, let box = e.box {
                    layer.transform.x = box.x + box.w / 2
                    layer.transform.y = box.y + box.h / 2
                }
            }
        case .strokeAdded(let e):
            self.update(e.id) { layer in
                guard case .drawing(var drawing) = layer.content else { return }
                drawing.strokes.append(e.stroke)
                layer.content = .drawing(drawing)
            }
        case .layerChanged(let e):
            self.update(e.id) { layer in
                if let transform = e.transform { layer.transform = transform }
                if let opacity = e.opacity { layer.opacity = opacity }
                if let shape = e.shape, case .shape = layer.content { layer.content = .shape(shape) }
            }
        case .layerRemoved(let e):
            self.layers.removeAll { $0.id == e.id }
            self.filters.removeAll { $0.target == .layer(e.id) }
        case .filterApplied(let e):
            self.filters.append(e.filter)
            if let number = LocalLabel.number(of: e.filter.id), number >= self.nextFilterNumber { self.nextFilterNumber = number + 1 }
        case .filterParamsChanged(let e):
            if let index = self.filters.firstIndex(where: { $0.id == e.id }) {
                self.filters[index].params = e.params
                self.filters[index].paramVersion = e.paramVersion
            }
        case .filterRemoved(let e):
            self.filters.removeAll { $0.id == e.id }
        case .layerReordered(let e):
            if let from = self.layerIndex(e.id) {
                let layer = self.layers.remove(at: from)
                self.layers.insert(layer, at: max(0, min(e.index, self.layers.count)))
            }
        case .canvasCropped(let e):
            guard let canvas = self.canvas else { break }
            self.canvas = Canvas(width: e.width, height: e.height, background: canvas.background)
            self.moveEverything { t in
                var t = t
                t.x -= Double(e.x)
                t.y -= Double(e.y)
                return t
            }
            self.refitCaptions(from: canvas)
        case .canvasExtended(let e):
            guard let canvas = self.canvas else { break }
            self.canvas = Canvas(width: Canvas.sum(canvas.width, e.left, e.right), height: Canvas.sum(canvas.height, e.top, e.bottom),
                                 background: e.background)
            self.moveEverything { t in
                var t = t
                t.x += Double(e.left)
                t.y += Double(e.top)
                return t
            }
            self.refitCaptions(from: canvas)
        case .canvasRotated(let e):
            guard let canvas = self.canvas else { break }
            let from = Point(x: Double(canvas.width) / 2, y: Double(canvas.height) / 2)
            let to = Point(x: Double(e.width) / 2, y: Double(e.height) / 2)
            self.canvas = Canvas(width: e.width, height: e.height, background: canvas.background)
            self.moveEverything { $0.rotated(by: e.degrees, from: from, to: to) }
            self.refitCaptions(from: canvas)
        case .canvasFlipped(let e):
            guard let canvas = self.canvas else { break }
            self.moveEverything { $0.flipped(e.axis, width: Double(canvas.width), height: Double(canvas.height)) }
            self.refitCaptions(from: canvas)
        case .baseImageMoved(let e):
            self.basePlacement = e.transform
        case .headMoved:
            break
        }
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
            guard let role = layers[index].text?.role, role != .free else { continue }
            let box = TextContent.captionBox(role, width: width, height: height)
            layers[index].editText { content in
                content.width = box.w
                content.height = box.h
                if content.style.maxSize == oldDefault { content.style.maxSize = newDefault }
            }
            layers[index].transform = Transform(x: box.x + box.w / 2, y: box.y + box.h / 2)
        }
    }

    /// Canvas edits carry the base image and every layer along with the picture.
    private mutating func moveEverything(_ move: (Transform) -> Transform) {
        basePlacement = move(basePlacement)
        for index in layers.indices { layers[index].transform = move(layers[index].transform) }
    }
}
