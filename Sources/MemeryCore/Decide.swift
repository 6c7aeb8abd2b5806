extension Creation {
    /// Validates `command` against this state (and the gallery, for names) and returns the
    /// events it causes. Throws a `DomainError` naming the bad value; nothing is stored then.
    public func decide(_ command: CreationCommand, gallery: Gallery = Gallery()) throws -> [CreationEvent] {
        switch command {
        case .create(let name):
            guard !exists else { throw DomainError.creationExists }
            if let reason = Gallery.problem(withName: name) { throw DomainError.invalidName(name, reason: reason) }
            if gallery.entry(named: name) != nil { throw DomainError.nameTaken(name) }
            return [.created(.init(id: id, name: name))]

        case .importBaseImage(let image):
            guard exists else { throw DomainError.creationNotStarted }
            guard baseImage == nil else { throw DomainError.baseImageAlreadySet }
            return [.baseImageImported(.init(image: image))]

        case let .addText(role, text, box, changes):
            try requireCanvas()
            if role != .free, let existing = caption(role) {
                return try decide(.editText(id: existing.id, text: text, box: box, style: changes))
            }
            guard !text.isEmpty else { throw DomainError.emptyText }
            let layerBox = box ?? TextLayer.captionBox(role, width: width, height: height)
            try check(layerBox)
            let style = changes.applied(to: .meme(canvasHeight: height))
            try style.validate()
            let layer = TextLayer(id: "L\(nextLayerNumber)", role: role, text: text, box: layerBox, style: style)
            return [.textLayerAdded(.init(layer: layer))]

        case let .editText(id, text, box, changes):
            guard let layer = textLayer(id) else { throw DomainError.noSuchLayer(id) }
            if let text, text.isEmpty { throw DomainError.emptyText }
            if let box { try check(box) }
            let style = changes.applied(to: layer.style)
            try style.validate()
            let edit = CreationEvent.TextLayerEdited(
                id: id,
                text: text == layer.text ? nil : text,
                box: box == layer.box ? nil : box,
                style: style == layer.style ? nil : style)
            guard edit.text != nil || edit.box != nil || edit.style != nil else { return [] }
            return [.textLayerEdited(edit)]

        case .removeText(let id):
            guard textLayer(id) != nil else { throw DomainError.noSuchLayer(id) }
            return [.textLayerRemoved(.init(id: id))]

        case let .setCaptions(top, bottom):
            try requireCanvas()
            guard top != nil || bottom != nil else { throw DomainError.nothingToChange }
            var state = self
            var events = [CreationEvent]()
            for (role, text) in [(TextLayer.Role.top, top), (.bottom, bottom)] {
                guard let text else { continue }
                let caused: [CreationEvent]
                if text.isEmpty {
                    caused = state.caption(role).map { [.textLayerRemoved(.init(id: $0.id))] } ?? []
                } else {
                    caused = try state.decide(.addText(role: role, text: text, box: nil, style: TextStyleChanges()))
                }
                for event in caused { state = state.evolve(event) }
                events += caused
            }
            return events
        }
    }

    private func requireCanvas() throws {
        guard exists else { throw DomainError.creationNotStarted }
        guard baseImage != nil else { throw DomainError.creationNotStarted }
    }

    private func check(_ box: Box) throws {
        let limit = Double(max(width, height)) * 4
        guard box.w >= 1, box.w <= limit else {
            throw DomainError.outOfRange(field: "box width", value: box.w, range: 1...limit)
        }
        guard box.h >= 1, box.h <= limit else {
            throw DomainError.outOfRange(field: "box height", value: box.h, range: 1...limit)
        }
        guard box.x < Double(width), box.y < Double(height), box.x + box.w > 0, box.y + box.h > 0 else {
            throw DomainError.boxOutsideCanvas(box, width: width, height: height)
        }
    }
}
